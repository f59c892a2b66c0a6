import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { grantCoins } from "./market-support";
import { call, expectFailure, expectOk, fetchWorker, signUp, uniqueEmail, type Member, type Reply } from "../support/client";
import { freshWindowIfEnding } from "../support/rate-window";
import { socketHeaders } from "../support/socket";

/**
 * Every limited action answers 429 in the §7 envelope (returnCode 429000) once its budget is spent
 * (README "Rate limits"). Budgets are per key, so each test uses fresh members and emails.
 * The binding counts in fixed windows: a burst that straddles a window edge may get up to twice the budget,
 * so the first 429 must come after `limit` calls and no later than `2 × limit + 1`.
 */
async function firstRefusal(limit: number, attempt: (i: number) => Promise<Reply | Response>) {
  for (let i = 0; i < 2 * limit + 2; i++) {
    const reply = await attempt(i);
    if (reply.status === 429) {
      const body = reply instanceof Response ? await reply.json<Record<string, unknown>>() : reply.body;
      expect(body).toMatchObject({ returnCode: "429000", returnMessage: "Too many requests, please try again later" });
      expect(i, "refused before the budget was spent").toBeGreaterThanOrEqual(limit);
      return i;
    }
    if (reply.status >= 500) throw new Error(`call ${i} failed otherwise: ${reply.status} ${reply instanceof Response ? "" : JSON.stringify(reply.body)}`);
    if (reply instanceof Response) {
      reply.webSocket?.accept();
      reply.webSocket?.close();
    }
  }
  throw new Error(`no 429 after ${2 * limit + 2} calls`);
}

describe("session limits", () => {
  it("login per account: 10 a minute", async () => {
    const m = await signUp();
    await firstRefusal(10, () => call("POST", "/public/core/sessions/SMP", { body: { username: m.email, password: "wrong password" } }));
    // The right password is refused too while the account is limited: no guessing around the limit.
    expectFailure(await call("POST", "/public/core/sessions/SMP", { body: { username: m.email, password: m.password } }), 429, "429000");
    // Another account is unaffected.
    const other = await signUp();
    expectOk(await call("POST", "/public/core/sessions/SMP", { body: { username: other.email, password: other.password } }));
  });

  // Login per address (RL_ADDRESS, 120 a minute) is exercised in tests/api/session.test.ts ("limits logins per address").

  it("sign-up per email: 10 a minute", async () => {
    const email = uniqueEmail("burst");
    await firstRefusal(10, () => call("POST", "/public/core/members/SMP", { body: { username: email, password: "correct horse battery", adult: true } }));
  });

  it("password reset per email: 5 a minute, and the answer does not reveal whether the account exists", async () => {
    const m = await signUp();
    await firstRefusal(5, () => call("POST", "/public/core/members/SMP/forget/password", { body: { email: m.email } }));
    const nobody = uniqueEmail("nobody");
    await firstRefusal(5, () => call("POST", "/public/core/members/SMP/forget/password", { body: { email: nobody } }));
  });

  it("OTP per member: 5 a minute", async () => {
    const m = await signUp();
    await firstRefusal(5, () => call("POST", `/private/core/otp/${m.memberId}`, { as: m, body: { otp: "000000" } }));
  });

  it("wallet transfer code guesses per member: 5 a minute", async () => {
    const m = await signUp();
    const to = await signUp();
    await grantCoins(m, 100);
    await firstRefusal(5, (i) =>
      call("POST", `/private/core/wallet/transfer/${m.memberId}`, { as: m, body: { simpleCode: to.memberNo, amount: 100, otp: String(100000 + i) } }),
    );
  });

  it("password change per member: 5 a minute", async () => {
    const m = await signUp();
    await firstRefusal(5, () => call("PUT", `/private/core/members/password/${m.memberId}`, { as: m, body: { oldPassword: "wrong one", newPassword: "whatever it is" } }));
  });
});

describe("feature limits", () => {
  it("album key attempts per viewer and album: 5 a minute, then even the right key waits", async () => {
    const [owner, guesser] = [await signUp(), await signUp()];
    const album = expectOk(await call("POST", "/private/sns/albums", { as: owner, body: { title: "locked", secretKey: "right-key-123" } }));
    const unlock = (as: typeof owner, secretKey: string) => call("POST", `/private/sns/albums/${album.idAlbum}/unlock`, { as, body: { secretKey } });
    // Straddling a window edge would let up to ten wrong keys through and spend the album's budget for the next viewer.
    await freshWindowIfEnding(60);
    expect(await firstRefusal(5, (i) => unlock(guesser, `wrong-${i}`))).toBe(5);
    expectFailure(await unlock(guesser, "right-key-123"), 429, "429000");
    // Another viewer's limit is their own (the album's hourly budget across viewers: tests/api/privacy-albums.test.ts).
    const fresh = await signUp();
    expectOk(await unlock(fresh, "right-key-123"));
  });

  it("chat sends per member: 30 per 10 s", async () => {
    const m = await signUp();
    let seq = 0;
    await firstRefusal(30, () =>
      call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { message: `burst ${++seq}`, requestId: `rl-${m.memberNo}-${seq}` } }),
    );
  });

  it("guestbook posts per member: 30 per 10 s", async () => {
    const [writer, owner] = [await signUp(), await signUp()];
    await env.DB.prepare("update profiles set kyc_status = 1, nickname = 'writer', avator = '/media/x.jpg', qualify = 1 where member_id = ?").bind(writer.memberId).run();
    await env.DB.prepare("update profiles set nickname = 'owner', avator = '/media/y.jpg', qualify = 1 where member_id = ?").bind(owner.memberId).run();
    const kyc = { ...writer, kycStatus: 1 };
    await firstRefusal(30, (i) => call("POST", `/private/core/guestbooks/${owner.memberNo}`, { as: kyc, body: { message: `hello ${i}` } }));
  });

  it("uploads per member: 20 a minute", async () => {
    const m = await signUp();
    await firstRefusal(20, () => {
      const form = new FormData();
      form.set("type", "photo");
      return call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form });
    });
  });

  it("socket connects per member: 30 per 10 s, answered before the room wakes", async () => {
    const m = await signUp();
    const ticket = async () => expectOk(await call("POST", "/private/core/sessions/ticket", { as: m, body: { audience: "socket" } })).ticket as string;
    const t = await ticket();
    await firstRefusal(30, () => fetchWorker(`/parties/member-inbox/SMP~${m.memberId}`, { headers: socketHeaders(t) }));
    // Another member connects normally.
    const other = await signUp();
    const otherTicket = expectOk(await call("POST", "/private/core/sessions/ticket", { as: other, body: { audience: "socket" } })).ticket;
    const response = await fetchWorker(`/parties/member-inbox/SMP~${other.memberId}`, { headers: socketHeaders(otherTicket) });
    expect(response.status).toBe(101);
    response.webSocket!.accept();
    response.webSocket!.close();
  });

  it("data export and account deletion per member: 5 a minute", async () => {
    const m: Member = await signUp();
    await firstRefusal(5, () => call("GET", `/private/core/members/${m.memberId}/export`, { as: m }));
    const n: Member = await signUp();
    await firstRefusal(5, () => call("DELETE", `/private/core/members/${n.memberId}`, { as: n, body: { password: "not the password" } }));
  });
});

describe("social and room limits (per member and action)", () => {
  const target = async () => {
    const t = await signUp();
    return t.memberNo;
  };

  it("follows and unfollows, friend requests and rejections, favourites, blocks, mutes, reports and unqualified marks: 20 a minute each", async () => {
    const m = await signUp();
    const someone = await target();
    await firstRefusal(20, (i) => call(i % 2 ? "DELETE" : "POST", `/private/core/follows/${someone}`, { as: m }));
    // A budget is per action: the same member may still favourite, block and mute.
    await firstRefusal(20, (i) => call(i % 2 ? "DELETE" : "POST", i % 2 ? `/private/core/favourites/${someone}` : "/private/core/favourites", { as: m, body: i % 2 ? undefined : { targetMemberNo: someone } }));
    await firstRefusal(20, () => call("POST", "/private/core/friends/request", { as: m, body: { targetMemberNo: someone } }));
    await firstRefusal(20, () => call("POST", "/private/core/mutes", { as: m, body: { targetMemberNo: someone, duration: "24h" } }));
    await firstRefusal(20, async () => call("POST", "/private/core/blocks", { as: m, body: { targetMemberNo: await target() } }));
    const reporter = await signUp();
    await firstRefusal(20, () => call("POST", "/private/core/reports", { as: reporter, body: { targetMemberNo: someone, reason: "spam" } }));
    // Unqualified marks walk sequential ids: the budget holds whichever profiles they name.
    const marker = await signUp();
    await firstRefusal(20, (i) => call("PUT", `/private/core/profiles/unqualified/${i + 1}`, { as: marker }));
  });

  it("reactions, edits, deletes and mark-read (each fans out to a room): 30 per 10 s each", async () => {
    const m = await signUp();
    await env.DB.prepare("update profiles set nickname = 'Reactor', avator = '/media/x.jpg', qualify = 1 where member_id = ?").bind(m.memberId).run();
    const sent = expectOk(
      await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { message: "react to me", requestId: `rl-react-${m.memberNo}` } }),
    );
    const id = sent.idChatroomMessage;
    await firstRefusal(30, (i) => call("PUT", `/private/sns/chatroom/messages/${m.memberId}/${id}/react`, { as: m, body: { replyPayload: { type: "emoji", reactEmoji: i % 2 ? "👍" : "❤️" } } }));
    await firstRefusal(30, (i) => call("PUT", `/private/sns/chatroom/messages/${m.memberId}/${id}`, { as: m, body: { message: `edit ${i}` } }));
    await firstRefusal(30, () => call("PUT", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/read`, { as: m, body: {} }));
    await firstRefusal(30, () => call("DELETE", `/private/sns/chatroom/messages/${m.memberId}/999999999`, { as: m }));
  });

  it("profile views: 120 a minute per visitor address, 30 per 10 s per member", async () => {
    const owner = await signUp();
    const headers = { "CF-Connecting-IP": "198.51.100.23" };
    await firstRefusal(120, () => call("GET", `/public/core/profiles/SMP/member/${owner.memberNo}`, { headers }));
    expectFailure(await call("GET", `/public/core/profiles/SMP/page/${owner.memberNo}`, { headers }), 429, "429000");
    const viewer = await signUp();
    await firstRefusal(30, () => call("GET", `/private/core/profiles/SMP/page/${owner.memberNo}`, { as: viewer }));
  });

  it("a follow/unfollow or request/reject loop notifies its target once a day", async () => {
    const [looper, target] = [await signUp(), await signUp()];
    for (let i = 0; i < 4; i++) {
      expectOk(await call("POST", `/private/core/follows/${target.memberNo}`, { as: looper }));
      expectOk(await call("DELETE", `/private/core/follows/${target.memberNo}`, { as: looper }));
      expectOk(await call("POST", "/private/core/friends/request", { as: looper, body: { targetMemberNo: target.memberNo } }));
      expectOk(await call("POST", "/private/core/friends/reject", { as: target, body: { targetMemberNo: looper.memberNo } }));
    }
    await new Promise((r) => setTimeout(r, 300)); // notices are sent after the response
    const rows = await env.DB.prepare("select type, count(*) as n from notifications where member_id = ? group by type").bind(target.memberId).all<{ type: string; n: number }>();
    expect(Object.fromEntries(rows.results.map((r) => [r.type, r.n]))).toEqual({ follow: 1, friendRequest: 1 });
  });
});
