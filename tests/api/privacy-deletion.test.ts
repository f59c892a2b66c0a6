import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { PRIVATE_PLACEHOLDER, PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";

/**
 * Account deletion leaves nothing of the member (README Decisions "Deleting an account"): the old number is not
 * found anywhere, what remains in others' content is a bare 'deleted member' card, and what the member wrote in
 * private (messages, replies, feedback, report reasons, guestbook entries) is gone from D1 itself.
 */
let seq = 0;
const rid = () => `deletion-${Date.now().toString(36)}-${++seq}`;
const post = (m: Member, body: Record<string, unknown>, room = PUBLIC_CHATROOM_ID) =>
  call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as: m, body: { requestId: rid(), ...body } });
const one = <T>(sql: string, ...binds: unknown[]) => env.DB.prepare(sql).bind(...binds).first<T>();
const count = async (sql: string, ...binds: unknown[]) => (await one<{ n: number }>(sql, ...binds))!.n;

/** A member with everything a card can say: role, orientation, looking-for, sign, verification, counts, an avatar. */
async function fullMember(tag: string) {
  const m = await signUp();
  await env.DB.prepare(
    `update profiles set nickname = ?, avator = ?, qualify = 1, kyc_status = 1, multi_gender = 2, look_for = 3, is_rainbow = 1,
      birthday = '1990-04-01', zodiac_sign = 'aries', page_views = 42, bidding_count = 3, introduction = ? where member_id = ?`,
  )
    .bind(`${tag}${m.memberNo}`, `/media/SMP/${m.memberNo}/avatar/a.jpg`, `intro of ${tag}`, m.memberId)
    .run();
  return { ...m, kycStatus: 1 };
}

/** Every shape of a card: no role, orientation, sign, verification, avatar or last access; not the old number. */
function expectBareCard(card: Record<string, unknown>, oldNo: string) {
  expect(card).toMatchObject({ nickname: "deleted member", avator: "", qualify: false, multiGender: null, lookFor: 0, kycStatus: 0, isRainbow: false, lastAccess: null });
  expect(card.simpleCode).not.toBe(oldNo);
  expect(JSON.stringify(card)).not.toMatch(/aries|1990/);
}

describe("a deleted account", () => {
  let gone: Member & { kycStatus: number };
  let other: Member & { kycStatus: number };
  let publicMessage: { idChatroomMessage: number };
  let privateReply: { idChatroomMessage: number };
  let direct: { idChatroomMessage: number };
  let received: { idChatroomMessage: number };
  let threadNote: { idChatroomMessage: number };
  let countBefore: number;
  let goneIdProfile: number;
  const words = {
    public: "public words that stay",
    privateReply: "whisper-in-public-room-71",
    direct: "direct-body-secret-72",
    received: "said to the member who leaves",
    thread: "private-thread-reply-73",
    guestbookOut: "guestbook-written-out-74",
    guestbookIn: "guestbook-written-in-75",
    feedback: "feedback-confession-76",
    report: "report-reason-77",
    reminder: "reminder-title-78",
  };

  beforeAll(async () => {
    gone = await fullMember("Gone");
    other = await fullMember("Other");
    const reported = await signUp();
    // Each follows the other, so private messages are delivered (not held as requests).
    expectOk(await call("POST", `/private/core/follows/${other.memberNo}`, { as: gone }));
    expectOk(await call("POST", `/private/core/follows/${gone.memberNo}`, { as: other }));
    publicMessage = expectOk(await post(gone, { message: words.public }));
    privateReply = expectOk(await post(gone, { message: words.privateReply, isPrivate: true, toMemberNo: other.memberNo }));
    const room = directChatroomId(gone.memberNo, other.memberNo);
    direct = expectOk(await post(gone, { message: words.direct }, room));
    received = expectOk(await post(other, { message: words.received }, room));
    threadNote = expectOk(await post(other, { message: "a note to reply under" }));
    expectOk(await call("POST", `/private/sns/chatroom/messages/threads/${gone.memberId}`, { as: gone, body: { idChatroomMessage: threadNote.idChatroomMessage, message: words.thread, isPrivate: true } }));
    expectOk(await call("POST", `/private/core/guestbooks/${other.memberNo}`, { as: gone, body: { message: words.guestbookOut } }));
    expectOk(await call("POST", `/private/core/guestbooks/${gone.memberNo}`, { as: other, body: { message: words.guestbookIn } }));
    expectOk(await call("POST", "/private/cs/feedback/SMP", { as: gone, body: { message: words.feedback } }));
    expectOk(await call("POST", "/private/core/reports", { as: gone, body: { targetMemberNo: reported.memberNo, reason: words.report } }));
    expectOk(await call("POST", "/private/core/reminders", { as: gone, body: { idChatroomMessage: threadNote.idChatroomMessage, title: words.reminder, remindAt: new Date().toISOString() } }));
    expectOk(await call("POST", "/public/core/members/SMP/forget/password", { body: { email: gone.email } }));
    expect(await count("select count(*) as n from mail_outbox where to_email = ?", gone.email)).toBe(1);
    countBefore = expectOk(await call("GET", "/public/core/members/count/SMP")).count;
    goneIdProfile = (await one<{ id: number }>("select id_profile as id from profiles where member_id = ?", gone.memberId))!.id;

    expect(expectOk(await call("DELETE", `/private/core/members/${gone.memberId}`, { as: gone, body: { password: gone.password } })).deleted).toBe(true);
  });

  it("answers 404 for its old number on every lookup, logged out and logged in", async () => {
    const no = gone.memberNo;
    const publicPaths = [
      `/public/core/profiles/SMP/member/${no}`,
      `/public/core/profiles/SMP/page/${no}`,
      `/public/sns/visitors/SMP/code/${no}`,
      `/public/sns/actions/SMP/${no}`,
      `/public/sns/characters/SMP?memberNo=${no}`,
      `/public/core/banners/users/${no}?project=SMP`,
      `/public/sns/member-albums/SMP/${no}`,
      `/public/sns/sub-members/SMP/${no}`,
    ];
    for (const path of publicPaths) expectFailure(await call("GET", path), 404);
    for (const path of publicPaths) expectFailure(await call("GET", path.replace("/public/", "/private/"), { as: other }), 404);

    const asOther: [string, string, unknown?][] = [
      ["GET", `/private/core/follows/${no}`],
      ["POST", `/private/core/follows/${no}`],
      ["GET", `/private/core/friends/status/${no}`],
      ["POST", "/private/core/friends/request", { targetMemberNo: no }],
      ["GET", `/private/core/guestbooks/history/${no}`],
      ["POST", `/private/core/guestbooks/${no}`, { message: "anyone there?" }],
      ["POST", "/private/core/leave-message", { code: no, text: "anyone there?" }],
      ["GET", `/private/core/actions/${no}`],
      ["GET", `/private/sns/public-keys/${no}`],
      ["GET", `/private/sns/hierarchy/SMP/${no}`],
      ["GET", `/private/sns/hierarchy/SMP/${no}/history`],
      ["GET", `/private/sns/member-albums/${no}`],
      ["POST", "/private/sns/connections", { memberNo: no }],
      ["POST", "/private/core/blocks", { targetMemberNo: no }],
      ["POST", "/private/core/mutes", { targetMemberNo: no }],
      ["POST", "/private/core/reports", { targetMemberNo: no, reason: "x" }],
      ["POST", "/private/core/favourites", { targetMemberNo: no }],
      // By the private id too (a member never learns it, but it must not answer either), and by the card's idProfile.
      ["GET", `/private/core/profiles/${gone.memberId}`],
      ["PUT", `/private/core/profiles/unqualified/${goneIdProfile}`],
    ];
    for (const [method, path, body] of asOther) {
      const reply = await call(method, path, { as: other, body });
      expect([path, reply.status]).toEqual([path, 404]);
      expectFailure(reply, 404);
    }
    // Writing to it in the shared room is refused the same way.
    expectFailure(await post(other, { message: "to the void", isPrivate: true, toMemberNo: no }), 404);
  });

  it("leaves no card of it in lists or counts", async () => {
    expect(expectOk(await call("GET", "/public/core/members/count/SMP")).count).toBe(countBefore - 1);
    const lists = [
      "/public/core/profiles/SMP/hot",
      "/public/core/profiles/SMP/new",
      "/public/core/profiles/SMP/last-access",
      "/public/core/profiles/SMP/search?keyword=deleted",
      "/public/core/profiles/SMP/multi-gender/2",
      "/public/core/profiles/SMP/zodiac-sign?sign=aries",
      "/public/core/profiles/SMP/all",
    ];
    for (const path of lists) {
      const text = JSON.stringify(expectOk(await call("GET", path)));
      expect(text, path).not.toContain("deleted member");
      expect(text, path).not.toContain(gone.memberNo);
    }
    const followers = JSON.stringify(expectOk(await call("GET", `/private/core/followers/${other.memberId}`, { as: other })));
    expect(followers).not.toContain("deleted member");
  });

  it("keeps its public message under a bare 'deleted member' card", async () => {
    for (const viewer of [other, null]) {
      const page = expectOk(await call("GET", `/${viewer ? "private" : "public"}/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50&project=SMP`, { as: viewer }));
      const shown = page.find((m: any) => m.idChatroomMessage === publicMessage.idChatroomMessage);
      expect(shown.message).toBe(words.public);
      expectBareCard(shown.profile, gone.memberNo);
      const detail = expectOk(await call("GET", `/${viewer ? "private" : "public"}/sns/chatroom/messages/${publicMessage.idChatroomMessage}?project=SMP`, { as: viewer }));
      expectBareCard(detail.profile, gone.memberNo);
    }
    const profile = await one<Record<string, unknown>>("select * from profiles where member_id = ?", gone.memberId);
    expect(profile).toMatchObject({
      multi_gender: null, look_for: 0, is_rainbow: 0, kyc_status: 0, birthday: null, zodiac_sign: null, page_views: 0, bidding_count: 0,
      unqualified_count: 0, last_access: null, last_chat_at: null, created_at: 0, updated_at: 0, introduction: "", avator: "",
    });
    expect(profile!.simple_code).toMatch(/^deleted-[a-z0-9]{12}$/);
  });

  it("keeps the conversations readable with the placeholder where its private words were", async () => {
    const room = directChatroomId(gone.memberNo, other.memberNo);
    const dm = expectOk(await call("GET", `/private/sns/chatroom/${room}/messages?pageSize=50`, { as: other }));
    const mine = dm.find((m: any) => m.idChatroomMessage === direct.idChatroomMessage);
    expect(mine).toMatchObject({ message: PRIVATE_PLACEHOLDER, payload: null });
    expectBareCard(mine.profile, gone.memberNo);
    // The survivor's chat list still leads to the conversation, under a bare card.
    const entry = expectOk(await call("GET", "/private/sns/chatroom/list", { as: other })).find((e: any) => e.profile.nickname === "deleted member");
    expect(entry.chatroomId).toBe(room);
    expectBareCard(entry.profile, gone.memberNo);
    // What the other member said stays theirs.
    expect(dm.find((m: any) => m.idChatroomMessage === received.idChatroomMessage).message).toBe(words.received);
    const shared = expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`, { as: other }));
    expect(shared.find((m: any) => m.idChatroomMessage === privateReply.idChatroomMessage).message).toBe(PRIVATE_PLACEHOLDER);
    const note = expectOk(await call("GET", `/private/sns/chatroom/messages/${threadNote.idChatroomMessage}`, { as: other }));
    expect(note.threads.map((t: any) => t.message)).toEqual([PRIVATE_PLACEHOLDER]);
    expectBareCard(note.threads[0].profile, gone.memberNo);
  });

  it("erases its private words, feedback, report reasons, guestbook entries, reminders and mail from D1", async () => {
    const tables: [string, string][] = [
      ["chat_messages", "message || ' ' || payload"],
      ["chat_threads", "message"],
      ["guestbook_entries", "message"],
      ["feedback", "message"],
      ["reports", "reason"],
      ["chat_reminders", "title || ' ' || description"],
      ["notifications", "params"],
    ];
    const erased = [words.privateReply, words.direct, words.thread, words.guestbookOut, words.guestbookIn, words.feedback, words.report, words.reminder];
    for (const [table, text] of tables) {
      for (const word of erased) expect(await count(`select count(*) as n from ${table} where ${text} like ?`, `%${word}%`), `${table}: ${word}`).toBe(0);
    }
    expect(await count("select count(*) as n from feedback where member_id = ?", gone.memberId)).toBe(0);
    expect(await count("select count(*) as n from reports where member_id = ? and reason = ''", gone.memberId)).toBe(1);
    expect(await count("select count(*) as n from guestbook_entries where owner_member_id = ?1 or author_member_id = ?1", gone.memberId)).toBe(0);
    expect(await count("select count(*) as n from mail_outbox where to_email = ?", gone.email)).toBe(0);
    // Public words and what others said to the member stay.
    expect(await count("select count(*) as n from chat_messages where message = ?", words.public)).toBe(1);
    expect(await count("select count(*) as n from chat_messages where message = ?", words.received)).toBe(1);
    // Its referral code no longer signs anyone up into its tenant.
    const row = await one<{ referral_code: string; last_login_at: number | null }>("select referral_code, last_login_at from members where id = ?", gone.memberId);
    expect(row).toMatchObject({ last_login_at: null });
    expect(row!.referral_code).toMatch(/^deleted-/);
  });
});

describe("an image message in a shared room", () => {
  it("goes with its file; a text message stays", async () => {
    const m = await fullMember("Img");
    const src = `/media/SMP/${m.memberNo}/photo/deletedimage000000000001.jpg`;
    await env.MEDIA.put(src.slice("/media/".length), new Uint8Array([1, 2, 3]));
    const image = expectOk(await post(m, { message: "", payload: { type: "img", src } }));
    const text = expectOk(await post(m, { message: "plain words" }));
    expect(expectOk(await call("DELETE", `/private/core/members/${m.memberId}`, { as: m, body: { password: m.password } })).mediaRemoved).toBe(1);
    const rows = await env.DB.prepare("select id_chatroom_message as id, deleted, payload from chat_messages where member_id = ? order by id").bind(m.memberId).all<{ id: number; deleted: number; payload: string }>();
    expect(rows.results).toEqual([
      { id: image.idChatroomMessage, deleted: 1, payload: "{}" },
      { id: text.idChatroomMessage, deleted: 0, payload: expect.stringContaining("plain words") },
    ]);
    const viewer = await signUp();
    const page = expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`, { as: viewer })) as any[];
    expect(page.some((x) => x.idChatroomMessage === image.idChatroomMessage)).toBe(false);
    expect(JSON.stringify(page)).not.toContain(src);
  });
});

describe("the data export", () => {
  it("names other members by their public number only, never by their private id", async () => {
    const [owner, followed, follower, referrer] = [await fullMember("Owner"), await fullMember("Followed"), await fullMember("Follower"), await signUp()];
    await env.DB.prepare("update members set referred_by = ? where id = ?").bind(referrer.memberId, owner.memberId).run();
    expectOk(await call("POST", `/private/core/follows/${followed.memberNo}`, { as: owner }));
    expectOk(await call("POST", `/private/core/follows/${owner.memberNo}`, { as: follower }));
    expectOk(await call("POST", `/private/core/follows/${owner.memberNo}`, { as: followed }));
    // A visit leaves a footprint naming the visitor; a guestbook entry and a notification name the author.
    expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: follower }));
    expectOk(await call("POST", `/private/core/guestbooks/${owner.memberNo}`, { as: followed, body: { message: "hello owner" } }));
    const room = directChatroomId(owner.memberNo, followed.memberNo);
    expectOk(await post(followed, { message: "a private word for the owner" }, room));
    expectOk(await post(owner, { message: "my answer" }, room));

    const data = expectOk(await call("GET", `/private/core/members/${owner.memberId}/export`, { as: owner }));
    const text = JSON.stringify(data);
    for (const them of [followed, follower, referrer]) expect(text).not.toContain(them.memberId);
    expect(text).not.toMatch(new RegExp(`\\bm[A-Za-z0-9]{23}\\b(?<!${owner.memberId})`));
    // Their numbers stand in for them, in columns renamed to say so.
    expect(data.tables.follows).toEqual(expect.arrayContaining([expect.objectContaining({ member_id: owner.memberId, target_member_no: followed.memberNo })]));
    expect(data.tables.visitors).toEqual([expect.objectContaining({ member_id: owner.memberId, visitor_no: follower.memberNo })]);
    expect(data.tables.members[0]).toMatchObject({ id: owner.memberId, referred_by: referrer.memberNo });
    const fromThem = data.tables.chat_messages.find((m: any) => m.message === "a private word for the owner");
    expect(fromThem).toMatchObject({ member_no: followed.memberNo, to_member_id: owner.memberId });
    expect(data.tables.guestbook_entries[0]).toMatchObject({ owner_member_id: owner.memberId, author_member_no: followed.memberNo, message: "hello owner" });
    // Nothing of what the others wrote to third parties.
    expect(text).not.toContain("a note to reply under");
  });

  it("gives a deleted member's id as null, not their old number", async () => {
    const [owner, leaver] = [await signUp(), await signUp()];
    expectOk(await call("POST", `/private/core/follows/${owner.memberNo}`, { as: leaver }));
    const room = directChatroomId(owner.memberNo, leaver.memberNo);
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: owner, body: { acceptFrom: "everyone" } }));
    expectOk(await post(leaver, { message: "before I go" }, room));
    expectOk(await call("DELETE", `/private/core/members/${leaver.memberId}`, { as: leaver, body: { password: leaver.password } }));
    const data = expectOk(await call("GET", `/private/core/members/${owner.memberId}/export`, { as: owner }));
    const text = JSON.stringify(data);
    expect(text).not.toContain(leaver.memberId);
    const message = data.tables.chat_messages.find((m: any) => m.to_member_id === owner.memberId);
    expect(message).toMatchObject({ member_no: null, message: PRIVATE_PLACEHOLDER });
  });
});


describe("migration 0014", () => {
  it("gives accounts deleted before it what deletion does now", async () => {
    // An account deleted the old way: status and nickname changed, everything else left.
    const [old, other] = [await fullMember("Old"), await fullMember("Witness")];
    expectOk(await call("POST", `/private/core/follows/${other.memberNo}`, { as: old }));
    expectOk(await call("POST", `/private/core/follows/${old.memberNo}`, { as: other }));
    const dm = expectOk(await post(old, { message: "old-private-body-91" }, directChatroomId(old.memberNo, other.memberNo)));
    expectOk(await call("POST", "/private/cs/feedback/SMP", { as: old, body: { message: "old-feedback-92" } }));
    await env.DB.batch([
      env.DB.prepare("update members set status = 'deleted' where id = ?").bind(old.memberId),
      env.DB.prepare("update profiles set nickname = 'deleted member' where member_id = ?").bind(old.memberId),
    ]);
    expectOk(await call("GET", `/public/core/profiles/SMP/member/${old.memberNo}`));

    const migrations = (env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS;
    const retention = migrations.find((m) => m.name.startsWith("0014_"))!;
    const data = retention.queries.filter((q) => !/CREATE INDEX/i.test(q));
    expect(data.length).toBeGreaterThan(5);
    await env.DB.batch(data.map((q) => env.DB.prepare(q)));

    expectFailure(await call("GET", `/public/core/profiles/SMP/member/${old.memberNo}`), 404);
    const profile = await one<Record<string, unknown>>("select * from profiles where member_id = ?", old.memberId);
    expect(profile).toMatchObject({ multi_gender: null, look_for: 0, kyc_status: 0, birthday: null, zodiac_sign: null, page_views: 0, is_rainbow: 0, avator: "" });
    expect(profile!.simple_code).toMatch(/^deleted-[0-9a-f]{12}$/);
    expect(await one("select message from chat_messages where id_chatroom_message = ?", dm.idChatroomMessage)).toEqual({ message: PRIVATE_PLACEHOLDER });
    expect(await count("select count(*) as n from feedback where member_id = ?", old.memberId)).toBe(0);
    // Live members are untouched.
    expect(await one("select simple_code, multi_gender from profiles where member_id = ?", other.memberId)).toEqual({ simple_code: other.memberNo, multi_gender: 2 });
  });
});
