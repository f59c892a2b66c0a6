import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, signUpPoster } from "../support/client";
import { eventually, notificationRows, verifiedMember } from "./social-support";

describe("leave message (§5: needs login and kycStatus 1)", () => {
  it("refuses an unverified member with 'Need to verify before leaving a message' and stores nothing", async () => {
    const [a, b] = [await signUpPoster(), await signUpPoster()];
    const refused = expectFailure(await call("POST", "/private/core/leave-message", { as: a, body: { code: b.memberNo, text: "hi" } }), 403, "403201");
    expect(refused.returnMessage).toBe("Need to verify before leaving a message");
    // Without an earlier message from b, writing directly into b's guestbook is a leave-message too.
    expectFailure(await call("POST", `/private/core/guestbooks/${b.memberNo}`, { as: a, body: { message: "hi" } }), 403, "403201");
    expectFailure(await call("POST", "/private/core/leave-message", { body: { code: b.memberNo, text: "hi" } }), 401);
    expect(await env.DB.prepare("select count(*) as n from guestbook_entries where owner_member_id = ?").bind(b.memberId).first("n")).toBe(0);
  });

  it("lets a verified member leave a message: stored trimmed, counted unread, notified", async () => {
    const a = await verifiedMember();
    const b = await signUpPoster();
    const entry = expectOk(await call("POST", "/private/core/leave-message", { as: a, body: { code: b.memberNo, text: "  Hello from a!  " } }));
    expect(entry).toMatchObject({ message: "Hello from a!", ownerMemberNo: b.memberNo, read: false });
    expect(entry.profile.simpleCode).toBe(a.memberNo);
    expect(entry.timelog).toMatch(/Z$/);
    expect(expectOk(await call("GET", `/private/core/guestbooks/counts/${b.memberId}`, { as: b }))).toEqual({ total: 1, unread: 1 });
    const notes = await eventually(() => notificationRows(b, "guestbook"), (r) => r.length === 1);
    expect(JSON.parse(notes[0]!.params)).toMatchObject({ idGuestbook: entry.idGuestbook, excerpt: "Hello from a!" });
  });

  it("validates the message: trimmed, non-empty, bounded; other tenants are 404", async () => {
    const a = await verifiedMember();
    const b = await signUpPoster();
    const other = await verifiedMember("ABC");
    for (const body of [{ code: b.memberNo, text: "   " }, { code: b.memberNo }, { code: "abc", text: "x" }, { code: b.memberNo, text: "x".repeat(2001) }]) {
      expectFailure(await call("POST", "/private/core/leave-message", { as: a, body }), 400, "400000");
    }
    expectFailure(await call("POST", "/private/core/leave-message", { as: other, body: { code: b.memberNo, text: "hi" } }), 404);
    expectFailure(await call("POST", "/private/core/leave-message", { as: a, body: { code: a.memberNo, text: "me" } }), 400, "400601");
    expect(await env.DB.prepare("select count(*) as n from guestbook_entries where author_member_id in (?, ?)").bind(a.memberId, other.memberId).first("n")).toBe(0);
  });
});

describe("guestbook", () => {
  it("lists my guestbook newest first, and reading clears unread", async () => {
    const owner = await signUpPoster();
    const [x, y] = [await verifiedMember(), await verifiedMember()];
    expectOk(await call("POST", "/private/core/leave-message", { as: x, body: { code: owner.memberNo, text: "first" } }));
    expectOk(await call("POST", "/private/core/leave-message", { as: y, body: { code: owner.memberNo, text: "second" } }));
    const page = expectOk(await call("GET", `/private/core/guestbooks/${owner.memberId}?pageSize=1`, { as: owner }));
    expect(page.items.map((e: any) => e.message)).toEqual(["second"]);
    expect(page.items[0].read).toBe(false);
    expect(page.unread).toBe(1);
    const rest = expectOk(await call("GET", `/private/core/guestbooks/${owner.memberId}?pageSize=1&before=${page.next}`, { as: owner }));
    expect(rest.items.map((e: any) => e.message)).toEqual(["first"]);
    expect(rest).toMatchObject({ total: 2, unread: 0, next: null });
    expect(expectOk(await call("GET", `/private/core/guestbooks/${owner.memberId}`, { as: owner })).items.every((e: any) => e.read)).toBe(true);
  });

  it("lets the owner reply without verification once the member wrote first; history shows both sides", async () => {
    const writer = await verifiedMember();
    const owner = await signUpPoster();
    expectOk(await call("POST", "/private/core/leave-message", { as: writer, body: { code: owner.memberNo, text: "nice profile" } }));
    const reply = expectOk(await call("POST", `/private/core/guestbooks/${writer.memberNo}`, { as: owner, body: { message: " thank you " } }));
    expect(reply).toMatchObject({ message: "thank you", ownerMemberNo: writer.memberNo });
    const history = expectOk(await call("GET", `/private/core/guestbooks/history/${owner.memberNo}`, { as: writer }));
    expect(history.items.map((e: any) => [e.profile.simpleCode, e.message])).toEqual([
      [owner.memberNo, "thank you"],
      [writer.memberNo, "nice profile"],
    ]);
    expect(expectOk(await call("GET", `/private/core/guestbooks/history/${writer.memberNo}`, { as: owner })).items).toHaveLength(2);
    // A third member sees none of it.
    const third = await signUpPoster();
    expect(expectOk(await call("GET", `/private/core/guestbooks/history/${owner.memberNo}`, { as: third })).items).toEqual([]);
    expectFailure(await call("POST", `/private/core/guestbooks/${writer.memberNo}`, { as: owner, body: { message: "" } }), 400);
  });

  it("deletes by id for the author or the owner only; others get 404", async () => {
    const author = await verifiedMember();
    const owner = await signUpPoster();
    const stranger = await signUpPoster();
    const other = await signUp("ABC");
    const first = expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "one" } }));
    const second = expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "two" } }));
    expectFailure(await call("DELETE", `/private/core/guestbooks/${first.idGuestbook}`, { as: stranger }), 404);
    expectFailure(await call("DELETE", `/private/core/guestbooks/${first.idGuestbook}`, { as: other }), 404);
    expectFailure(await call("DELETE", `/private/core/guestbooks/${first.idGuestbook}`), 401);
    expectFailure(await call("DELETE", "/private/core/guestbooks/0", { as: owner }), 400);
    expectOk(await call("DELETE", `/private/core/guestbooks/${first.idGuestbook}`, { as: author }));
    expectOk(await call("DELETE", `/private/core/guestbooks/${second.idGuestbook}`, { as: owner }));
    expectFailure(await call("DELETE", `/private/core/guestbooks/${second.idGuestbook}`, { as: owner }), 404);
    expect(expectOk(await call("GET", `/private/core/guestbooks/counts/${owner.memberId}`, { as: owner }))).toEqual({ total: 0, unread: 0 });
  });

  it("keeps my guestbook mine: other members 403, anonymous 401, other tenant 403", async () => {
    const owner = await signUpPoster();
    const stranger = await signUpPoster();
    const other = await signUp("ABC");
    expectFailure(await call("GET", `/private/core/guestbooks/${owner.memberId}`, { as: stranger }), 403);
    expectFailure(await call("GET", `/private/core/guestbooks/counts/${owner.memberId}`, { as: other }), 403);
    expectFailure(await call("GET", `/private/core/guestbooks/${owner.memberId}`), 401);
    expectFailure(await call("GET", `/private/core/guestbooks/history/${owner.memberNo}`, { as: other }), 404);
    expectFailure(await call("GET", `/private/core/guestbooks/${owner.memberId}?pageSize=1000`, { as: owner }), 400);
  });

  it("e-mails the owner about a new entry only when the e-mail alert switch is on", async () => {
    const author = await verifiedMember();
    const owner = await signUpPoster();
    expect(expectOk(await call("GET", "/private/core/social-settings", { as: owner }))).toEqual({ emailAlerts: false });
    expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "quiet" } }));
    await eventually(() => notificationRows(owner), (r) => r.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    const mails = () => env.DB.prepare("select subject from mail_outbox where to_email = ?").bind(owner.email).all();
    expect((await mails()).results).toHaveLength(0);
    expect(expectOk(await call("PUT", "/private/core/social-settings", { as: owner, body: { emailAlerts: true } }))).toEqual({ emailAlerts: true });
    expectFailure(await call("PUT", "/private/core/social-settings", { as: owner, body: { emailAlerts: "yes" } }), 400);
    expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "loud" } }));
    const sent = await eventually(mails, (r) => r.results.length === 1);
    expect(sent.results).toHaveLength(1);
  });
});
