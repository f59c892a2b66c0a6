import { describe, expect, it } from "vitest";
import { parseServerEvent } from "../../worker/contract/server-event";

// §7 Real time: the browser checks each socket frame against its type's schema (built on first use).
describe("parseServerEvent", () => {
  it("accepts each event of a known type with its fields, and keeps only the schema's fields", () => {
    const welcome = parseServerEvent({ type: "welcome", memberNo: "10000001", room: "SMP~room", extra: "dropped" });
    expect(welcome).toEqual({ success: true, data: { type: "welcome", memberNo: "10000001", room: "SMP~room" } });
    const counts = parseServerEvent({ type: "inbox.counts", counts: { total: 2 }, latestNotificationId: 7 });
    expect(counts.success).toBe(true);
    // The same type again uses the schema built the first time.
    expect(parseServerEvent({ type: "welcome", memberNo: "10000002", room: "r" }).success).toBe(true);
  });

  it("refuses unknown types, missing or wrong fields, and frames that are not objects", () => {
    for (const frame of [
      { type: "welcome", memberNo: 1, room: "r" },
      { type: "chat.message", message: { idChatroomMessage: "1" } },
      { type: "presence.update", member: { memberNo: "1", online: "yes", lastSeen: "" } },
      { type: "toString" },
      { type: "constructor" },
      { type: "nope" },
      { memberNo: "1" },
      null,
      "welcome",
    ]) expect(parseServerEvent(frame)).toEqual({ success: false });
  });
});
