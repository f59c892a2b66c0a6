import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { personalChatroomId } from "../../worker/features/members/personal-room";
import { listMessagesJson } from "../../worker/features/chat/chat-page";
import { HIDDEN_LIMIT, MAX_KEPT_ROOMS, SPARE, keptSizes } from "../../worker/features/chat/chat-page-kept";
import { pageJson, type PageValues } from "../../worker/features/chat/chat-page-sql";
import { call, expectOk, withAvatar, type Member } from "../support/client";
import { privateImage } from "../support/route-matrix";
import { complete, countingDb, many } from "./home-support";

// The API tests read chat pages on every call (CHAT_PAGE_TTL_SECONDS = 0 in tests/vitest.config.ts), which puts
// each page together from a window read in that call; these tests keep the window, as deployed. Kept windows live
// in this isolate's module, keyed by tenant and room: each test has its own tenant.
const keeping = { ...env, CHAT_PAGE_TTL_SECONDS: "60" } as Env;
const PAGE = 12;

let seq = 0;
const post = (m: Member, body: Record<string, unknown>) =>
  call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { requestId: `kept-${Date.now().toString(36)}-${++seq}`, ...body } });
const asChatMember = (m: Member) => ({ memberId: m.memberId, memberNo: m.memberNo, projectCode: m.projectCode, kycStatus: 1 });
const insertInto = (table: "blocks" | "mutes", from: Member, to: Member | string) =>
  env.DB.prepare(`insert into ${table} (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)`)
    .bind(from.projectCode, from.memberId, typeof to === "string" ? to : to.memberId, Date.now())
    .run();

/** The page from the kept window (a member, or a visitor for null). */
async function keptPage(project: string, viewer: Member | null, db?: D1Database, { pageSize = PAGE, room = PUBLIC_CHATROOM_ID } = {}) {
  const e = db ? ({ ...keeping, DB: db } as Env) : keeping;
  return JSON.parse(await listMessagesJson(e, project, room, viewer && asChatMember(viewer), { pageSize })) as Record<string, unknown>[];
}
/** Round trips and statements of one kept-page call. */
async function costOf(project: string, viewer: Member | null, options?: { pageSize?: number; room?: string }) {
  const counted = countingDb(env.DB);
  await keptPage(project, viewer, counted.db, options);
  return { roundTrips: counted.stats.roundTrips, statements: counted.stats.rowsRead.length };
}

/** The oracle: the same page with every §5/§6 rule in SQL (blocks and mutes as `not exists`, the viewer's rules per row). */
async function pageByRulesInSql(project: string, viewer: Member | null) {
  const values: PageValues = {
    projectCode: project, chatroomId: PUBLIC_CHATROOM_ID, a: "", b: "", viewerId: viewer?.memberId ?? "", viewerNo: viewer?.memberNo ?? "",
    at: Date.now(), memberNo: "", before: 0, after: 0, pageSize: PAGE,
  };
  const shape = { direct: false, viewer: Boolean(viewer), byMember: false, before: false, after: false };
  return JSON.parse(await pageJson(env, values, shape)) as Record<string, unknown>[];
}

/** A message from `from` in each room, as the send route stores one. */
const insertMessages = (project: string, from: Member, rooms: string[]) =>
  env.DB.batch(rooms.map((room, i) =>
    env.DB.prepare("insert into chat_messages (project_code, chatroom_id, member_id, member_no, request_id, message, date_add, date_udp) values (?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(project, room, from.memberId, from.memberNo, `inserted-${i}`, `in ${room}`, Date.now(), Date.now())));

const version = async (project: string, room = PUBLIC_CHATROOM_ID) =>
  (await env.DB.prepare("select version from chat_room_versions where project_code = ? and chatroom_id = ?").bind(project, room).first<{ version: number }>())?.version ?? 0;
const cardVersion = async (project: string) =>
  (await env.DB.prepare("select version from chat_card_versions where project_code = ?").bind(project).first<{ version: number }>())?.version ?? 0;

/**
 * A room with more messages than a kept window: 16 posters (the last of them, with `burst`, posts SPARE + 1 more),
 * then a mention, private messages both ways, an image to a stranger, a reaction.
 */
async function busyRoom(project: string, burst = false) {
  const members = await many(26, project);
  for (const [i, m] of members.entries()) if (i !== 3) await complete(m, { kyc_status: 1 });
  const [a, b, d] = members;
  for (const [i, m] of members.slice(4, 20).entries()) expectOk(await post(m, { message: `hello ${i}` }));
  if (burst) for (let i = 0; i <= SPARE; i++) expectOk(await post(members[16]!, { message: `burst ${i}` }));
  const mention = expectOk(await post(d!, { message: "@b hello", toMemberNo: b!.memberNo }));
  expectOk(await post(a!, { message: "just for b", isPrivate: true, toMemberNo: b!.memberNo }));
  expectOk(await post(d!, { message: "", isPrivate: true, toMemberNo: b!.memberNo, payload: { type: "img", src: await privateImage(d!) } }));
  expectOk(await post(b!, { message: "answer to a", isPrivate: true, toMemberNo: a!.memberNo }));
  expectOk(await call("PUT", `/private/sns/chatroom/messages/${b!.memberId}/${mention.idChatroomMessage}/react`, { as: b, body: { replyPayload: { reactEmoji: "🔥" } } }));
  return members;
}

describe("the newest page of a shared room, kept per isolate", () => {
  it("gives every reader the page the rules in SQL give: own private messages, hidden members, cards without avatars or with renditions", async () => {
    const members = await busyRoom("KCA", true);
    const [a, b, d, noAvatar] = members as [Member, Member, Member, Member];
    const blocking = members[20]!;
    const muting = members[21]!;
    const blockedBy = members[22]!;
    const manyHidden = members[23]!;
    await insertInto("blocks", blocking, members[19]!); // the newest public poster
    await insertInto("blocks", members[18]!, blockedBy);
    await insertInto("mutes", muting, members[17]!);
    await insertInto("mutes", muting, d); // d's three messages, and the mention's reaction stays with it
    // HIDDEN_LIMIT hidden members (posters and members who left): the list is cut there, so this reader's page is
    // read with the rules in SQL.
    for (const other of members.slice(4, 4 + SPARE)) await insertInto("blocks", manyHidden, other);
    for (let i = SPARE; i < HIDDEN_LIMIT; i++) await insertInto("blocks", manyHidden, `gone-${i}`);
    // A reader who mutes the member of the burst (more messages than the spare rows) gets the page read with the rules in SQL.
    const mutingChatty = members[24]!;
    await insertInto("mutes", mutingChatty, members[16]!);
    // SPARE hidden members, few of whom posted among the kept rows: served from the kept window.
    const severalHidden = members[25]!;
    for (const other of members.slice(4, 4 + SPARE)) await insertInto("blocks", severalHidden, other);
    // A safe-mode reader who posted (their own card stays theirs), and a poster whose avatar is `blur`.
    const safe = members[15]!;
    await env.DB.prepare("update profiles set safe_mode = 1 where member_id = ?").bind(safe.memberId).run();
    const blurred = members[16]!; // the burst's poster: most of the page
    await env.DB.prepare("update profiles set blur = 1 where member_id = ?").bind(blurred.memberId).run();

    const readers: [string, Member | null][] = [
      ["sender", a], ["recipient", b], ["third member", d], ["member without avatar", noAvatar], ["blocking", blocking],
      ["muting", muting], ["blocked by another", blockedBy], ["several hidden", severalHidden],
      ["many hidden", manyHidden], ["muting the burst", mutingChatty], ["safe mode", safe], ["visitor", null],
    ];
    await keptPage("KCA", members[10]!); // another member's call reads the window
    for (const [name, reader] of readers) {
      const oracle = await pageByRulesInSql("KCA", reader);
      expect(oracle.length, name).toBe(PAGE);
      expect(await keptPage("KCA", reader), name).toEqual(oracle);
      expect(await keptPage("KCA", reader), `${name}, again`).toEqual(oracle);
    }
    // Those two readers' pages were read again with the rules in SQL: a second round trip after the kept one.
    for (const reader of [manyHidden, mutingChatty]) expect((await costOf("KCA", reader)).roundTrips, reader.memberNo).toBe(2);
    expect((await costOf("KCA", severalHidden)).roundTrips).toBe(1);
    // Private text shows to its sender (b has not accepted a's request, so b sees the placeholder too) and no one else.
    const forA = await keptPage("KCA", a);
    const forD = await keptPage("KCA", members[10]!);
    const privateToB = (page: Record<string, unknown>[]) => page.find((m) => m.isPrivate && m.memberNo === a.memberNo)!;
    expect(privateToB(forA)).toMatchObject({ message: "just for b", placeholder: false });
    expect(privateToB(forD)).toMatchObject({ message: "private message", placeholder: true });
    const cards = (await keptPage("KCA", noAvatar)).map((m) => m.profile as { avator: string; blur: boolean; simpleCode: string });
    expect(cards.every((c) => c.avator === "" && c.blur)).toBe(true);
    expect(forD.some((m) => (m.profile as { avator: string }).avator !== "")).toBe(true);
    // Renditions (README Decisions): a visitor and a safe-mode reader never get an original but the reader's own; the
    // `blur` poster's original reaches no one else.
    const originals = (page: Record<string, unknown>[], own?: Member) =>
      page.flatMap((m) => [m.profile, m.toProfile] as ({ avator: string; simpleCode: string } | null)[]).filter((c) => c?.avator.includes("/avatar/") && c.simpleCode !== own?.memberNo);
    expect(originals(await keptPage("KCA", null))).toEqual([]);
    expect(originals(await keptPage("KCA", safe), safe)).toEqual([]);
    expect((await keptPage("KCA", safe)).some((m) => (m.profile as { avator: string }).avator.includes("/blur/"))).toBe(true);
    const blurredCard = (page: Record<string, unknown>[]) => page.find((m) => m.memberNo === blurred.memberNo)!.profile;
    expect(blurredCard(forD)).toMatchObject({ avator: `/media/SMP/${blurred.memberNo}/blur/y.jpg`, blur: true });
    expect(blurredCard(await keptPage("KCA", blurred))).toMatchObject({ avator: `/media/SMP/${blurred.memberNo}/avatar/x.jpg` });
  });

  it("shows a new message, an edit, a reaction, a thread reply and a delete on the next call (the room's version)", async () => {
    const members = await busyRoom("KCB");
    const [a, b] = members as [Member, Member];
    const reader = members[12]!;
    await keptPage("KCB", reader);
    const expectCurrent = async (what: string) => {
      expect(await keptPage("KCB", reader), what).toEqual(await pageByRulesInSql("KCB", reader));
      expect(await keptPage("KCB", a), `${what}, as a`).toEqual(await pageByRulesInSql("KCB", a));
    };
    let before = await version("KCB");
    const bumped = async () => {
      const now = await version("KCB");
      expect(now).toBeGreaterThan(before);
      before = now;
    };

    const sent = expectOk(await post(a, { message: "fresh" }));
    await bumped();
    await expectCurrent("new message");
    expect((await keptPage("KCB", reader)).at(-1)).toMatchObject({ message: "fresh" });

    expectOk(await call("PUT", `/private/sns/chatroom/messages/${a.memberId}/${sent.idChatroomMessage}`, { as: a, body: { message: "fresh, edited" } }));
    await bumped();
    await expectCurrent("edit");
    expect((await keptPage("KCB", reader)).at(-1)).toMatchObject({ message: "fresh, edited" });

    expectOk(await call("PUT", `/private/sns/chatroom/messages/${b.memberId}/${sent.idChatroomMessage}/react`, { as: b, body: { replyPayload: { reactEmoji: "👍" } } }));
    await bumped();
    await expectCurrent("reaction");

    expectOk(await call("POST", `/private/sns/chatroom/messages/threads/${b.memberId}`, { as: b, body: { idChatroomMessage: sent.idChatroomMessage, message: "a reply" } }));
    await bumped();
    await expectCurrent("thread reply");
    expect((await keptPage("KCB", reader)).at(-1)).toMatchObject({ threadCount: 1 });

    expectOk(await call("DELETE", `/private/sns/chatroom/messages/${a.memberId}/${sent.idChatroomMessage}`, { as: a }));
    await bumped();
    await expectCurrent("delete");
    expect((await keptPage("KCB", reader)).some((m) => m.idChatroomMessage === sent.idChatroomMessage)).toBe(false);
  });

  it("reads one statement per call while current, two when the reader has messages in the page, and keeps tenants apart", async () => {
    const members = await busyRoom("KCC");
    const [a] = members as [Member];
    const reader = members[21]!; // posted nothing
    const cold = countingDb(env.DB);
    await keptPage("KCC", reader, cold.db);
    expect(cold.stats).toMatchObject({ roundTrips: 1, batches: 1 });
    expect(cold.stats.rowsRead.length).toBe(2); // the window, and the reader's version, hidden members and avatar right

    // The reader has no messages among the kept rows: the version, hidden members and avatar right only.
    const quiet = countingDb(env.DB);
    const readerPage = await keptPage("KCC", reader, quiet.db);
    expect(quiet.stats).toMatchObject({ roundTrips: 1, batches: 1 });
    expect(quiet.stats.rowsRead.length).toBe(1);
    expect(quiet.stats.rowsRead[0]!).toBeLessThan(10);

    const own = countingDb(env.DB);
    await keptPage("KCC", a, own.db);
    expect(own.stats).toMatchObject({ roundTrips: 1, batches: 1 });
    expect(own.stats.rowsRead.length).toBe(2); // and a's own messages, as a sees them

    // Another tenant's room of the same id is another window.
    const other = await many(1, "KCD");
    await withAvatar(other[0]!);
    expectOk(await post(other[0]!, { message: "elsewhere" }));
    const elsewhere = await keptPage("KCD", other[0]!);
    expect(elsewhere.map((m) => m.message)).toEqual(["elsewhere"]);
    expect(readerPage.some((m) => m.message === "elsewhere")).toBe(false);
  });
  it("shows a changed card on the next call (the project's card version), but not a last access", async () => {
    const members = await busyRoom("KCE");
    const reader = members[21]!; // posted nothing
    const poster = members[19]!; // the newest public poster
    await keptPage("KCE", reader);
    const card = async () => (await keptPage("KCE", reader)).find((m) => m.memberNo === poster.memberNo)!.profile as Record<string, unknown>;
    const expectCurrent = async (what: string) => expect(await keptPage("KCE", reader), what).toEqual(await pageByRulesInSql("KCE", reader));

    let before = await cardVersion("KCE");
    await complete(poster, { nickname: "Renamed" });
    expect(await cardVersion("KCE")).toBeGreaterThan(before);
    await expectCurrent("nickname");
    expect(await card()).toMatchObject({ nickname: "Renamed" });

    // A moderator takes the avatar down; the account closes.
    before = await cardVersion("KCE");
    await complete(poster, { avator: "", closed: 1 });
    expect(await cardVersion("KCE")).toBeGreaterThan(before);
    await expectCurrent("avatar and closed");
    expect(await card()).toMatchObject({ avator: "", closed: true });

    // A member's `blur` is part of the card; a reader's safe mode is read on every call.
    before = await cardVersion("KCE");
    await complete(poster, { blur: 1 });
    expect(await cardVersion("KCE")).toBeGreaterThan(before);
    await expectCurrent("blur");
    expect(await card()).toMatchObject({ avator: `/media/SMP/${poster.memberNo}/blur/y.jpg`, blur: true });
    await complete(poster, { blur: 0 });
    await env.DB.prepare("update profiles set safe_mode = 1 where member_id = ?").bind(reader.memberId).run();
    await expectCurrent("reader in safe mode");
    expect(await card()).toMatchObject({ avator: `/media/SMP/${poster.memberNo}/blur/y.jpg`, blur: true });
    await env.DB.prepare("update profiles set safe_mode = 0 where member_id = ?").bind(reader.memberId).run();
    await expectCurrent("reader out of safe mode");
    expect(await card()).toMatchObject({ avator: `/media/SMP/${poster.memberNo}/avatar/x.jpg` });

    // Last access changes on every visit and is left out: the kept rows stay (one statement).
    before = await cardVersion("KCE");
    await env.DB.prepare("update profiles set last_access = ? where member_id = ?").bind(Date.now() + 1000, poster.memberId).run();
    expect(await cardVersion("KCE")).toBe(before);
    expect(await costOf("KCE", reader)).toEqual({ roundTrips: 1, statements: 1 });

    // Another tenant's cards leave this tenant's version alone.
    const [elsewhere] = await many(1, "KCF");
    await complete(elsewhere!, { nickname: "Elsewhere" });
    expect(await cardVersion("KCE")).toBe(before);
  });

  it("serves smaller pages from a kept window, reads a larger one again, and gives one-to-one rooms no version", async () => {
    const members = await busyRoom("KCG", true);
    const reader = members[21]!; // posted nothing
    expect(await costOf("KCG", reader)).toEqual({ roundTrips: 1, statements: 2 });
    expect(await costOf("KCG", reader, { pageSize: 1 })).toEqual({ roundTrips: 1, statements: 1 });
    expect(await keptPage("KCG", reader, undefined, { pageSize: 1 })).toEqual((await pageByRulesInSql("KCG", reader)).slice(-1));
    // More than the kept rows can answer: the window is read again, at the new size, and kept.
    expect(await costOf("KCG", reader, { pageSize: 40 })).toEqual({ roundTrips: 1, statements: 2 });
    expect(await costOf("KCG", reader, { pageSize: 40 })).toEqual({ roundTrips: 1, statements: 1 });
    expect(await costOf("KCG", reader)).toEqual({ roundTrips: 1, statements: 1 });

    const [a, b] = members as [Member, Member];
    const direct = directChatroomId(a.memberNo, b.memberNo);
    await insertMessages("KCG", a, [direct]);
    expect(await version("KCG", direct)).toBe(0);
    expect((await env.DB.prepare("select count(*) as n from chat_room_versions where chatroom_id like 'dm-%'").first<{ n: number }>())?.n).toBe(0);
  });

  it(`keeps at most ${MAX_KEPT_ROOMS} rooms per isolate, the least recently read going first`, async () => {
    const [poster] = await many(1, "KCH");
    const rooms = Array.from({ length: MAX_KEPT_ROOMS + 1 }, (_, i) => personalChatroomId(`9${String(i).padStart(5, "0")}`));
    await insertMessages("KCH", poster!, rooms);
    for (const room of rooms) expect((await keptPage("KCH", null, undefined, { room })).map((m) => m.message)).toEqual([`in ${room}`]);
    expect(keptSizes().rooms).toBe(MAX_KEPT_ROOMS);
    // The first room went; the last is still kept.
    expect(await costOf("KCH", null, { room: rooms.at(-1)! })).toEqual({ roundTrips: 1, statements: 1 });
    expect(await costOf("KCH", null, { room: rooms[0]! })).toEqual({ roundTrips: 1, statements: 2 });
    expect(keptSizes().chars).toBeGreaterThan(0);
  });
});
