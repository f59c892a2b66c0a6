import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, login, signUp, type Member } from "../support/client";

/** Account deletion and data export (§7): DELETE /core/members/{memberId}, GET …/export. */
const exportOf = (m: Member, as: Member | null = m) => call("GET", `/private/core/members/${m.memberId}/export`, { as });
const deleteAccount = (m: Member, password: string, as: Member | null = m) =>
  call("DELETE", `/private/core/members/${m.memberId}`, { as, body: { password } });
const count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

async function withSecrets(m: Member) {
  await env.DB.prepare("update profiles set phone = ?, mobile = ?, default_address = ?, safeword = ?, nickname = ?, avator = ?, qualify = 1 where member_id = ?")
    .bind(`+81-${m.memberNo}`, `090-${m.memberNo}`, `Addr ${m.memberNo}`, `safe-${m.memberNo}`, `Nick${m.memberNo}`, `/media/SMP/${m.memberNo}/avatar/a.jpg`, m.memberId)
    .run();
}
let seq = 0;
const post = (m: Member, message: string) =>
  call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { message, requestId: `privacy-${Date.now()}-${++seq}` } });

describe("data export", () => {
  it("gives the member every row about them as JSON, without secrets or others' acts against them", async () => {
    const [owner, other, blocker] = [await signUp(), await signUp(), await signUp()];
    await withSecrets(owner);
    await withSecrets(other);
    expectOk(await call("POST", `/private/core/follows/${other.memberNo}`, { as: owner }));
    // Someone blocking the owner is theirs, not the owner's: it must not show in the export.
    expectOk(await call("POST", "/private/core/blocks", { as: blocker, body: { targetMemberNo: owner.memberNo } }));
    const sent = expectOk(await post(owner, "my own words"));
    await env.MEDIA.put(`SMP/${owner.memberNo}/photo/exportphoto0000000000000.jpg`, new Uint8Array([1, 2, 3]));
    await env.MEDIA.put(`SMP/${other.memberNo}/photo/notmine00000000000000000.jpg`, new Uint8Array([1]));

    const data = expectOk(await exportOf(owner));
    expect(data).toMatchObject({ memberId: owner.memberId, memberNo: owner.memberNo, projectCode: "SMP" });
    expect(data.exportedAt).toMatch(/Z$/);
    expect(data.tables.members).toEqual([expect.objectContaining({ id: owner.memberId, email: owner.email })]);
    expect(data.tables.profiles[0]).toMatchObject({ phone: `+81-${owner.memberNo}`, safeword: `safe-${owner.memberNo}`, default_address: `Addr ${owner.memberNo}` });
    expect(data.tables.sessions.length).toBeGreaterThan(0);
    expect(data.tables.follows).toEqual([expect.objectContaining({ member_id: owner.memberId })]);
    expect(data.tables.chat_messages.map((m: any) => m.id_chatroom_message)).toContain(sent.idChatroomMessage);
    expect(data.media.map((m: any) => m.key)).toEqual([`SMP/${owner.memberNo}/photo/exportphoto0000000000000.jpg`]);

    const text = JSON.stringify(data);
    expect(text).not.toMatch(/password_hash|token_hash|code_hash/);
    expect(text).not.toContain(owner.token);
    expect(data.tables.blocks).toBeUndefined();
    // Nothing of the other member's private fields.
    for (const secret of [`+81-${other.memberNo}`, `090-${other.memberNo}`, `Addr ${other.memberNo}`, `safe-${other.memberNo}`, other.email]) expect(text).not.toContain(secret);
  });

  it("is only for the member themself", async () => {
    const [owner, other, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    await withSecrets(owner);
    expectFailure(await exportOf(owner, null), 401);
    expectFailure(await exportOf(owner, other), 403);
    expectFailure(await exportOf(owner, foreign), 403);
    for (const reply of [await exportOf(owner, other), await exportOf(owner, foreign)]) expect(JSON.stringify(reply.body)).not.toContain(`+81-${owner.memberNo}`);
  });
});

describe("account deletion", () => {
  it("refuses a wrong password and changes nothing", async () => {
    const owner = await signUp();
    await withSecrets(owner);
    const before = await env.DB.prepare("select * from profiles where member_id = ?").bind(owner.memberId).first();
    expectFailure(await deleteAccount(owner, "not my password"), 403, "403101");
    expectFailure(await call("DELETE", `/private/core/members/${owner.memberId}`, { as: owner, body: {} }), 400);
    expect(await env.DB.prepare("select * from profiles where member_id = ?").bind(owner.memberId).first()).toEqual(before);
    expect(await count("select count(*) as n from members where id = ? and status = 'active'", owner.memberId)).toBe(1);
    expectOk(await call("POST", "/private/core/sessions/ticket", { as: owner, body: {} }));
  });

  it("is only for the member themself", async () => {
    const [owner, other, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    expectFailure(await deleteAccount(owner, owner.password, null), 401);
    expectFailure(await deleteAccount(owner, owner.password, other), 403);
    expectFailure(await deleteAccount(owner, owner.password, foreign), 403);
    // Even with the right password, another member's session cannot delete this account.
    expectFailure(await call("DELETE", `/private/core/members/${owner.memberId}`, { as: other, body: { password: owner.password } }), 403);
    expect(await count("select count(*) as n from members where id = ? and status = 'active'", owner.memberId)).toBe(1);
  });

  it("removes the profile, media and sessions; messages stay as 'deleted member'", async () => {
    const [owner, other] = [await signUp(), await signUp()];
    await withSecrets(owner);
    await withSecrets(other);
    const second = await login("SMP", owner.email, owner.password);
    const secondSession = { headers: { "X-Access-Token": second.body.info.token, "X-Member-ID": owner.memberId } };
    expectOk(await call("POST", `/private/core/follows/${other.memberNo}`, { as: owner }));
    expectOk(await call("POST", `/private/core/follows/${owner.memberNo}`, { as: other }));
    const message = expectOk(await post(owner, "words that outlive the account"));
    const mine = [`SMP/${owner.memberNo}/photo/gone000000000000000000001.jpg`, `SMP/${owner.memberNo}/avatar/gone000000000000000000002.jpg`];
    for (const key of mine) await env.MEDIA.put(key, new Uint8Array([1, 2, 3]));
    const theirs = `SMP/${other.memberNo}/photo/stays00000000000000000001.jpg`;
    await env.MEDIA.put(theirs, new Uint8Array([1]));

    const reply = await deleteAccount(owner, owner.password);
    expect(expectOk(reply)).toEqual({ deleted: true, mediaRemoved: 2 });
    expect(reply.headers.get("Set-Cookie") ?? "").toMatch(/velvet_session=;/);

    // Sessions end at once, every one of them; the password no longer logs in.
    expectFailure(await call("POST", "/private/core/sessions/ticket", { as: owner, body: {} }), 401, "100003");
    expectFailure(await call("POST", "/private/core/sessions/ticket", { as: secondSession, body: {} }), 401, "100003");
    expectFailure(await login("SMP", owner.email, owner.password), 401, "401001");
    expect(await count("select count(*) as n from sessions where member_id = ? and ended_at is null", owner.memberId)).toBe(0);

    // The profile is wiped; the email is free again.
    const profile = await env.DB.prepare("select * from profiles where member_id = ?").bind(owner.memberId).first<Record<string, unknown>>();
    expect(profile).toMatchObject({ nickname: "deleted member", phone: "", mobile: "", default_address: "", safeword: "", avator: "", introduction: "", latitude: null });
    const account = await env.DB.prepare("select status, email from members where id = ?").bind(owner.memberId).first<{ status: string; email: string }>();
    expect(account!.status).toBe("deleted");
    expect(account!.email).not.toBe(owner.email);
    const again = await signUp("SMP", { email: owner.email });
    expect(again.memberId).not.toBe(owner.memberId);

    // Media under the member's prefix are gone; others' stay.
    for (const key of mine) expect(await env.MEDIA.head(key)).toBeNull();
    expect(await env.MEDIA.head(theirs)).not.toBeNull();

    // Member-centric rows are gone both ways; the message stays, shown as 'deleted member'.
    expect(await count("select count(*) as n from follows where member_id = ?1 or target_member_id = ?1", owner.memberId)).toBe(0);
    expect(await count("select count(*) as n from chat_messages where id_chatroom_message = ?", message.idChatroomMessage)).toBe(1);
    const listed = expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`, { as: other }));
    const shown = listed.find((m: any) => m.idChatroomMessage === message.idChatroomMessage);
    expect(shown.message).toBe("words that outlive the account");
    expect(JSON.stringify(shown)).toContain("deleted member");
    expect(JSON.stringify(listed)).not.toContain(`+81-${owner.memberNo}`);
    // The public profile no longer shows anything of them: their old number and their id are not found
    // (tests/api/privacy-deletion.test.ts walks every lookup).
    const publicProfile = await call("GET", `/private/core/profiles/${owner.memberId}`, { as: other });
    expect(JSON.stringify(publicProfile.body)).not.toContain(`Nick${owner.memberNo}`);
    expectFailure(publicProfile, 404);
    expectFailure(await call("GET", `/public/core/profiles/SMP/member/${owner.memberNo}`), 404);
  });
});

describe("deletion is all or nothing", () => {
  it("leaves the account exactly as it was when a write in the batch fails", async () => {
    const owner = await signUp();
    await withSecrets(owner);
    await env.MEDIA.put(`SMP/${owner.memberNo}/photo/kept0000000000000000000001.jpg`, new Uint8Array([1]));
    const profileBefore = await env.DB.prepare("select * from profiles where member_id = ?").bind(owner.memberId).first();
    // A fault injected into the last table the batch touches: the whole batch must roll back.
    await env.DB.prepare(`create trigger fail_privacy_delete before update on sessions when old.member_id = '${owner.memberId}' begin select raise(abort, 'injected fault'); end`).run();
    try {
      const reply = await deleteAccount(owner, owner.password);
      expectFailure(reply, 500, "500000");
      expect(JSON.stringify(reply.body)).not.toContain("injected fault");
    } finally {
      await env.DB.prepare("drop trigger fail_privacy_delete").run();
    }
    expect(await env.DB.prepare("select * from profiles where member_id = ?").bind(owner.memberId).first()).toEqual(profileBefore);
    expect(await count("select count(*) as n from members where id = ? and status = 'active' and email = ?", owner.memberId, owner.email)).toBe(1);
    expect(await env.MEDIA.head(`SMP/${owner.memberNo}/photo/kept0000000000000000000001.jpg`)).not.toBeNull();
    expectOk(await call("POST", "/private/core/sessions/ticket", { as: owner, body: {} }));
    expect(expectOk(await deleteAccount(owner, owner.password)).deleted).toBe(true);
  });
});
