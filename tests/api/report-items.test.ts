import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { eventually, notificationRows, verifiedMember } from "./social-support";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";

/**
 * Reporting one item hides it at once for the reporter only (README Decisions "Block evasion and per-item
 * reports"): a chat message or note, or a guestbook entry. Others still see it until an operator decides; the
 * reporter is then told the outcome. Tested as the reporter, the reported member, a visitor and another tenant.
 */

const rid = () => crypto.randomUUID();
const post = async (m: Member, text: string, extra: Record<string, unknown> = {}, room = PUBLIC_CHATROOM_ID) =>
  expectOk(await call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as: m, body: { message: text, requestId: rid(), ...extra } })) as {
    idChatroomMessage: number;
  };
type Page = { idChatroomMessage: number; message: string }[];
const roomPage = async (m: Member | null, query = "pageSize=50", room = PUBLIC_CHATROOM_ID) =>
  expectOk(await call("GET", `/${m ? "private" : "public"}/sns/chatroom/${room}/messages?${query}${m ? "" : "&project=SMP"}`, { as: m })) as Page;
const ids = (page: Page) => page.map((m) => m.idChatroomMessage);
const report = (from: Member, body: Record<string, unknown>) => call("POST", "/private/core/reports", { as: from, body: { reason: "abuse", ...body } });
const guestbookIds = async (m: Member) =>
  ((expectOk(await call("GET", `/private/core/guestbooks/${m.memberId}`, { as: m })) as { items: { idGuestbook: number }[] }).items).map((e) => e.idGuestbook);

async function operator(project = "SMP") {
  const op = await signUp(project);
  await env.DB.prepare("insert into operators (project_code, member_id, created_at) values (?, ?, ?)").bind(project, op.memberId, Date.now()).run();
  return op;
}

describe("reporting a chat message: the reporter", () => {
  it("no longer sees that message (newest page, older pages, one member's page, the note page); the author's others stay", async () => {
    const [reporter, author] = [await signUpPoster(), await signUpPoster()];
    const bad = await post(author, "a bad line");
    const fine = await post(author, "a fine line");
    expect(ids(await roomPage(reporter))).toContain(bad.idChatroomMessage);
    const answer = expectOk(await report(reporter, { targetMemberNo: author.memberNo, kind: "chat", itemId: bad.idChatroomMessage }));
    expect(answer).toEqual({ memberNo: author.memberNo, reported: true, hidden: true, kind: "chat", itemId: bad.idChatroomMessage });
    // The shared newest page (kept per isolate) and the pages read with every rule in SQL.
    for (const query of ["pageSize=50", `pageSize=50&before=${fine.idChatroomMessage + 1}`, `pageSize=50&memberNo=${author.memberNo}`]) {
      const page = ids(await roomPage(reporter, query));
      expect(page, query).not.toContain(bad.idChatroomMessage);
      expect(page, query).toContain(fine.idChatroomMessage);
    }
    expectFailure(await call("GET", `/private/sns/chatroom/messages/${bad.idChatroomMessage}`, { as: reporter }), 404);
    // Only that item: the author is not muted for the reporter.
    const mutes = await env.DB.prepare("select count(*) as n from mutes where member_id = ?").bind(reporter.memberId).first<{ n: number }>();
    expect(mutes!.n).toBe(0);
  });

  it("the author, other members and visitors still see it until an operator decides", async () => {
    const [reporter, author, other] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    const bad = await post(author, "still there for others");
    expectOk(await report(reporter, { targetMemberNo: author.memberNo, kind: "chat", itemId: bad.idChatroomMessage }));
    expect(ids(await roomPage(author))).toContain(bad.idChatroomMessage);
    expect(ids(await roomPage(other))).toContain(bad.idChatroomMessage);
    expect(ids(await roomPage(null))).toContain(bad.idChatroomMessage);
    expectOk(await call("GET", `/private/sns/chatroom/messages/${bad.idChatroomMessage}`, { as: other }));
    // Nobody is told who reported: the author has no notification of it.
    expect((await notificationRows(author)).filter((r) => r.type === "reportOutcome")).toEqual([]);
  });
});

describe("reporting a guestbook entry: the owner", () => {
  it("no longer sees that entry in their guestbook or the history; the author's other entries stay", async () => {
    const owner = await signUpPoster();
    const author = await verifiedMember();
    const first = expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "unwanted" } })) as { idGuestbook: number };
    const second = expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "fine" } })) as { idGuestbook: number };
    expectOk(await report(owner, { targetMemberNo: author.memberNo, kind: "guestbook", itemId: first.idGuestbook }));
    const left = await guestbookIds(owner);
    expect(left).not.toContain(first.idGuestbook);
    expect(left).toContain(second.idGuestbook);
    const history = expectOk(await call("GET", `/private/core/guestbooks/history/${author.memberNo}`, { as: owner })) as { items: { idGuestbook: number }[] };
    expect(history.items.map((e) => e.idGuestbook)).toEqual([second.idGuestbook]);
    // The author still sees what they wrote.
    const theirs = expectOk(await call("GET", `/private/core/guestbooks/history/${owner.memberNo}`, { as: author })) as { items: { idGuestbook: number }[] };
    expect(theirs.items.map((e) => e.idGuestbook).sort()).toEqual([first.idGuestbook, second.idGuestbook].sort());
  });
});

describe("reporting an item: what is refused", () => {
  it("404 for an item that is not the target's, not visible to the reporter, or another tenant's; nothing is hidden", async () => {
    const [reporter, author, bystander] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    const message = await post(author, "mine");
    // Not the named member's item.
    expectFailure(await report(reporter, { targetMemberNo: bystander.memberNo, kind: "chat", itemId: message.idChatroomMessage }), 404);
    // A private message between two others: the reporter sees only a placeholder.
    const secret = await post(author, "for bystander only", { toMemberNo: bystander.memberNo, isPrivate: true });
    expectFailure(await report(reporter, { targetMemberNo: author.memberNo, kind: "chat", itemId: secret.idChatroomMessage }), 404);
    // A guestbook entry in someone else's guestbook.
    const writer = await verifiedMember();
    const entry = expectOk(await call("POST", "/private/core/leave-message", { as: writer, body: { code: bystander.memberNo, text: "to bystander" } })) as { idGuestbook: number };
    expectFailure(await report(reporter, { targetMemberNo: writer.memberNo, kind: "guestbook", itemId: entry.idGuestbook }), 404);
    // Unknown ids.
    expectFailure(await report(reporter, { targetMemberNo: author.memberNo, kind: "chat", itemId: 99_999_999 }), 404);
    // Another tenant's member reporting this tenant's message.
    const foreign = await signUpPoster("DEV");
    expectFailure(await report(foreign, { targetMemberNo: author.memberNo, kind: "chat", itemId: message.idChatroomMessage }), 404);
    const hides = await env.DB.prepare("select count(*) as n from report_hides where member_id in (?, ?)").bind(reporter.memberId, foreign.memberId).first<{ n: number }>();
    expect(hides!.n).toBe(0);
  });

  it("400 for half an item or a bad kind, 401 for a visitor, 4xx for one's own item", async () => {
    const [reporter, author] = [await signUpPoster(), await signUpPoster()];
    const message = await post(author, "x");
    expectFailure(await report(reporter, { targetMemberNo: author.memberNo, kind: "chat" }), 400);
    expectFailure(await report(reporter, { targetMemberNo: author.memberNo, itemId: message.idChatroomMessage }), 400);
    expectFailure(await report(reporter, { targetMemberNo: author.memberNo, kind: "photo", itemId: 1 }), 400);
    expectFailure(await call("POST", "/private/core/reports", { body: { targetMemberNo: author.memberNo, kind: "chat", itemId: message.idChatroomMessage } }), 401);
    const own = await report(author, { targetMemberNo: author.memberNo, kind: "chat", itemId: message.idChatroomMessage });
    expect(own.status).toBeGreaterThanOrEqual(400);
    expect(own.status).toBeLessThan(500);
  });
});

describe("the outcome: the reporter is told", () => {
  it("gets an inbox notification when an operator dismisses or upholds; the operator stays unnamed", async () => {
    const op = await operator();
    const [reporter, author] = [await signUpPoster(), await signUpPoster()];
    const bad = await post(author, "reported");
    expectOk(await report(reporter, { targetMemberNo: author.memberNo, kind: "chat", itemId: bad.idChatroomMessage }));
    expectOk(await call("POST", `/private/core/moderation/SMP/members/${author.memberNo}/decisions`, { as: op, body: { action: "dismiss" } }));
    const dismissed = await eventually(() => notificationRows(reporter, "reportOutcome"), (rows) => rows.length === 1);
    expect(dismissed[0]!.actor_member_id).toBeNull();
    expect(JSON.parse(dismissed[0]!.params)).toEqual({ outcome: "dismissed" });
    // Shown in the reporter's inbox as type plus parameters.
    const list = expectOk(await call("GET", "/private/core/notifications", { as: reporter })) as { items: { type: string; params: Record<string, unknown>; actorMemberNo: string | null }[] };
    expect(list.items.find((i) => i.type === "reportOutcome")).toMatchObject({ params: { outcome: "dismissed" }, actorMemberNo: null });
    // The item stays hidden for the reporter after the decision.
    expect(ids(await roomPage(reporter))).not.toContain(bad.idChatroomMessage);

    const again = await post(author, "reported again");
    expectOk(await report(reporter, { targetMemberNo: author.memberNo, kind: "chat", itemId: again.idChatroomMessage }));
    expectOk(await call("POST", `/private/core/moderation/SMP/members/${author.memberNo}/decisions`, { as: op, body: { action: "suspend", hours: 24 } }));
    const upheld = await eventually(() => notificationRows(reporter, "reportOutcome"), (rows) => rows.length === 2);
    expect(JSON.parse(upheld[1]!.params)).toEqual({ outcome: "upheld" });
    // The reported member hears only of their own case, never of the reporter.
    expect(await notificationRows(author, "reportOutcome")).toEqual([]);
    for (const row of await notificationRows(author)) expect(row.actor_member_id).not.toBe(reporter.memberId);
  });
});
