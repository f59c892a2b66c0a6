import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { getDb } from "../../worker/db/client";
import { namedBatch } from "../../worker/db/named-batch";
import { profiles } from "../../worker/db/schema";
import { sendMessage } from "../../worker/features/chat/chat-send";
import { signUp, signUpPoster } from "../support/client";
import { countingDb } from "./home-support";

describe("named batches (README Decisions \"Named batches\")", () => {
  it("runs the named statements in one round trip and answers each by name; an undefined one is left out", async () => {
    const member = await signUp("NBA");
    const counted = countingDb(env.DB);
    const db = getDb({ DB: counted.db });
    const read = await namedBatch(
      db,
      {
        card: db.select({ memberNo: profiles.simpleCode }).from(profiles).where(sql`${profiles.memberId} = ${member.memberId}`),
        nothing: undefined,
        none: db.select({ memberNo: profiles.simpleCode }).from(profiles).where(sql`${profiles.memberId} = 'no such member'`),
      },
      [db.update(profiles).set({ lastChatAt: 1 }).where(sql`${profiles.memberId} = ${member.memberId}`)],
    );
    expect(read).toEqual({ card: [{ memberNo: member.memberNo }], none: [] });
    expect(counted.stats).toMatchObject({ roundTrips: 1, batches: 1 });
    expect(counted.stats.rowsRead).toHaveLength(3);
  });

  it("keeps a shared-room send to one round trip: its reads, insert and latest-speech stamp", async () => {
    const member = await signUpPoster("NBB");
    const counted = countingDb(env.DB);
    const sent = await sendMessage({ ...env, DB: counted.db } as Env, { ...member, kycStatus: 1 }, PUBLIC_CHATROOM_ID, {
      message: "one round trip",
      requestId: `named-${Date.now().toString(36)}`,
      isPrivate: false,
    } as Parameters<typeof sendMessage>[3]);
    expect(sent.message).toMatchObject({ message: "one round trip", memberNo: member.memberNo });
    expect(sent.fanout?.hiddenFrom).toEqual([]);
    expect(counted.stats).toMatchObject({ roundTrips: 1, batches: 1 });
  });
});
