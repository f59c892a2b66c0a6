import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { listMessagesJson } from "../../worker/features/chat/chat-page";
import { containsPhrase, hasMutedWord, matchForm, membersMuting, MUTING_READ_LIMIT } from "../../worker/features/members/muted-words";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";
import { eventually, verifiedMember } from "./social-support";

// README Decisions "Muted words": a member's own phrases withhold others' chat messages, notes, thread replies,
// guestbook entries and message requests containing them, from that member only, with a per-item "Show anyway".

const words = (m: Member | null) => call("GET", "/private/core/muted-words", { as: m });
const addWord = (m: Member | null, body: unknown) => call("POST", "/private/core/muted-words", { as: m, body });
const removeWord = (m: Member | null, id: number | string) => call("DELETE", `/private/core/muted-words/${id}`, { as: m });

let seq = 0;
const post = (m: Member, body: Record<string, unknown>, room = PUBLIC_CHATROOM_ID) =>
  call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as: m, body: { requestId: `muted-${Date.now().toString(36)}-${++seq}`, ...body } });
/** Each message of the page as [text, mutedWord]. */
const page = async (viewer: Member | null, query = "", room = PUBLIC_CHATROOM_ID) =>
  expectOk(
    await call("GET", viewer ? `/private/sns/chatroom/${room}/messages?pageSize=50${query}` : `/public/sns/chatroom/${room}/messages?pageSize=50&project=SMP${query}`, {
      as: viewer,
    }),
  ).map((m: any) => [m.message, Boolean(m.mutedWord)]);
const asChatMember = (m: Member) => ({ memberId: m.memberId, memberNo: m.memberNo, projectCode: m.projectCode, kycStatus: 1 });
/** The page as the kept window (chat-page-kept.ts) gives it when deployed: shared rows, per-reader masking after. */
const keptPage = async (viewer: Member) =>
  (JSON.parse(await listMessagesJson({ ...env, CHAT_PAGE_TTL_SECONDS: "60" } as Env, "SMP", PUBLIC_CHATROOM_ID, asChatMember(viewer), { pageSize: 50 })) as any[]).map((m) => [
    m.message,
    Boolean(m.mutedWord),
  ]);

describe("the matching rule", () => {
  it("matches Japanese and Chinese as substrings, Latin at word edges, after NFKC and lower case", () => {
    const has = (text: string, phrase: string) => containsPhrase(matchForm(text), matchForm(phrase));
    expect(has("明日のネタバレを見た", "ネタバレ")).toBe(true);
    expect(has("剧透警告：结局", "剧透")).toBe(true);
    expect(has("劇透警告", "劇透")).toBe(true);
    // Half-width katakana and full-width Latin are the same after NFKC; case does not matter.
    expect(has("ﾈﾀﾊﾞﾚ注意", "ネタバレ")).toBe(true);
    expect(has("ＳＰＯＩＬＥＲ alert", "spoiler")).toBe(true);
    expect(has("Big Spoiler!", "SPOILER")).toBe(true);
    // Word-boundary-ish for Latin: not inside another word, but fine next to CJK or punctuation.
    expect(has("a classic film", "ass")).toBe(false);
    expect(has("kiss my ass.", "ass")).toBe(true);
    expect(has("猫ass猫", "ass")).toBe(true);
    expect(has("spoilers ahead", "spoiler")).toBe(false);
    expect(has("the end game", "end game")).toBe(true);
    expect(has("the endgame", "end game")).toBe(false);
    expect(hasMutedWord("nothing here", [])).toBe(false);
    expect(hasMutedWord("", ["x"])).toBe(false);
  });
});

describe("the member's list: owner only, bounded, hostile input refused", () => {
  it("adds, lists, renews and deletes; expired words are neither listed nor applied, with no job", async () => {
    const me = await signUp();
    expect(expectOk(await words(me))).toEqual([]);
    const forever = expectOk(await addWord(me, { phrase: "  spoiler  " }));
    expect(forever).toMatchObject({ phrase: "spoiler", expiresAt: null });
    const day = expectOk(await addWord(me, { phrase: "ネタバレ", duration: "24h" }));
    expect(Date.parse(day.expiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    // The same phrase in another case or width is the same word: renewed, not added twice.
    const again = expectOk(await addWord(me, { phrase: "ＳＰＯＩＬＥＲ", duration: "7d" }));
    expect(again.idMutedWord).toBe(forever.idMutedWord);
    expect(expectOk(await words(me)).map((w: any) => w.phrase)).toEqual(["ＳＰＯＩＬＥＲ", "ネタバレ"]);

    await env.DB.prepare("update muted_words set expires_at = ? where id_muted_word = ?").bind(Date.now() - 1, day.idMutedWord).run();
    expect(expectOk(await words(me)).map((w: any) => w.phrase)).toEqual(["ＳＰＯＩＬＥＲ"]);

    expect(expectOk(await removeWord(me, forever.idMutedWord))).toEqual({ idMutedWord: forever.idMutedWord, deleted: true });
    expect(expectOk(await words(me))).toEqual([]);
    expectFailure(await removeWord(me, forever.idMutedWord), 404, "404000");
  });

  it("is the caller's own: another member's or another tenant's word is 404 and stays; a visitor gets 401", async () => {
    const [me, other] = [await signUp(), await signUp()];
    const foreign = await signUp("ABC");
    const mine = expectOk(await addWord(me, { phrase: "private word" }));
    expectFailure(await removeWord(other, mine.idMutedWord), 404, "404000");
    expectFailure(await removeWord(foreign, mine.idMutedWord), 404, "404000");
    expect(expectOk(await words(other))).toEqual([]);
    expect(expectOk(await words(foreign))).toEqual([]);
    expect(expectOk(await words(me)).map((w: any) => w.phrase)).toEqual(["private word"]);
    expectFailure(await words(null), 401);
    expectFailure(await addWord(null, { phrase: "x" }), 401);
    expectFailure(await removeWord(null, mine.idMutedWord), 401);
  });

  it("refuses empty, too long, control characters, unknown durations and fields, bad ids with 400, and the 101st word with 409631", async () => {
    const me = await signUp();
    for (const body of [
      {},
      { phrase: "" },
      { phrase: "   " },
      { phrase: "x".repeat(51) },
      { phrase: "a\u0000b" },
      { phrase: "line\nbreak" },
      { phrase: 42 },
      { phrase: ["a"] },
      { phrase: "ok", duration: "1y" },
      { phrase: "ok", extra: true },
    ]) {
      expectFailure(await addWord(me, body), 400);
    }
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) expectFailure(await removeWord(me, id), 400);
    expect(expectOk(await words(me))).toEqual([]);
    expect(expectOk(await addWord(me, { phrase: "x".repeat(50) })).phrase).toHaveLength(50);

    const at = Date.now();
    const insert = env.DB.prepare("insert into muted_words (project_code, member_id, phrase, phrase_norm, created_at, expires_at) values (?, ?, ?, ?, ?, null)");
    await env.DB.batch(Array.from({ length: 99 }, (_, i) => insert.bind("SMP", me.memberId, `word ${i}`, `word ${i}`, at)));
    expect(expectOk(await words(me))).toHaveLength(100);
    expectFailure(await addWord(me, { phrase: "one too many" }), 409, "409631");
    // An existing word may still be renewed at the bound.
    expectOk(await addWord(me, { phrase: "word 3", duration: "30d" }));
  });
});

describe("where it acts", () => {
  it("withholds others' chat messages containing a muted word from the muter only (pages, kept pages, older pages, notes, threads, chat list), with a show anyway", async () => {
    const [muter, author, other] = [await verifiedMember(), await verifiedMember(), await verifiedMember()];
    const foreign = await signUpPoster("ABC");
    expectOk(await addWord(muter, { phrase: "spoiler" }));
    expectOk(await addWord(muter, { phrase: "ネタバレ" }));
    // Another tenant's member muting the same word changes nothing here.
    expectOk(await addWord(foreign, { phrase: "ending" }));
    // The kept window is read before the messages, so the kept rows are shared and masking must come after them.
    await keptPage(other);
    const spoiled = expectOk(await post(author, { message: "Big SPOILER: the butler did it" }));
    const japanese = expectOk(await post(author, { message: "最終回のネタバレあり" }));
    expectOk(await post(author, { message: "a classic ending" }));
    const own = expectOk(await post(muter, { message: "my own spoiler" }));

    const expected = [
      ["", true],
      ["", true],
      ["a classic ending", false],
      ["my own spoiler", false],
    ];
    expect(await page(muter)).toEqual(expected);
    expect(await keptPage(muter)).toEqual(expected);
    // An older page (read with every rule in SQL) is masked the same way.
    expect(await page(muter, `&before=${own.idChatroomMessage}`)).toEqual(expected.slice(0, 3));
    const raw = JSON.stringify(expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`, { as: muter })));
    expect(raw).not.toContain("butler");
    expect(raw).not.toContain("最終回");

    // The author (not told), another member, a visitor and another tenant's member see everything.
    const full = [
      ["Big SPOILER: the butler did it", false],
      ["最終回のネタバレあり", false],
      ["a classic ending", false],
      ["my own spoiler", false],
    ];
    expect(await page(author)).toEqual(full);
    expect(await page(other)).toEqual(full);
    expect(await keptPage(other)).toEqual(full);
    expect(await page(null)).toEqual(full);
    expect(JSON.stringify(expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`, { as: author })))).not.toContain("mutedWord");

    // Notes: the detail withholds the note and its muted replies; showMuted=true is the one-item "Show anyway".
    expectOk(await call("POST", `/private/sns/chatroom/messages/threads/${other.memberId}`, { as: other, body: { idChatroomMessage: japanese.idChatroomMessage, message: "no ネタバレ please" } }));
    expectOk(await call("POST", `/private/sns/chatroom/messages/threads/${other.memberId}`, { as: other, body: { idChatroomMessage: japanese.idChatroomMessage, message: "fine reply" } }));
    const note = expectOk(await call("GET", `/private/sns/chatroom/messages/${japanese.idChatroomMessage}`, { as: muter }));
    expect([note.message, note.mutedWord, note.payload]).toEqual(["", true, null]);
    expect(note.threads.map((t: any) => [t.message, Boolean(t.mutedWord)])).toEqual([
      ["", true],
      ["fine reply", false],
    ]);
    const shown = expectOk(await call("GET", `/private/sns/chatroom/messages/${japanese.idChatroomMessage}?showMuted=true`, { as: muter }));
    expect([shown.message, shown.mutedWord]).toEqual(["最終回のネタバレあり", undefined]);
    expect(shown.threads.map((t: any) => t.message)).toEqual(["no ネタバレ please", "fine reply"]);
    expect(expectOk(await call("GET", `/private/sns/chatroom/messages/${spoiled.idChatroomMessage}`, { as: author })).message).toBe("Big SPOILER: the butler did it");
    expect(expectOk(await call("GET", `/public/sns/chatroom/messages/${spoiled.idChatroomMessage}?project=SMP`)).message).toBe("Big SPOILER: the butler did it");
    expectFailure(await call("GET", `/private/sns/chatroom/messages/${spoiled.idChatroomMessage}?showMuted=yes`, { as: muter }), 400);
    expectFailure(await call("GET", `/private/sns/chatroom/messages/${spoiled.idChatroomMessage}?showMuted=true`, { as: foreign }), 404);

    // Once the word is gone (or expired), the text comes back with no job.
    const list = expectOk(await words(muter));
    await env.DB.prepare("update muted_words set expires_at = ? where id_muted_word = ?").bind(Date.now() - 1, list[0].idMutedWord).run();
    expect((await page(muter))[0]).toEqual(["Big SPOILER: the butler did it", false]);
    expect((await keptPage(muter))[0]).toEqual(["Big SPOILER: the butler did it", false]);
  });

  it("withholds a message request's and a conversation's muted text, in the room and the chat list preview", async () => {
    const [stranger, muter] = [await signUp(), await signUp()];
    expectOk(await addWord(muter, { phrase: "剧透" }));
    const room = directChatroomId(stranger.memberNo, muter.memberNo);
    expectOk(await post(stranger, { message: "给你剧透一下" }, room));
    const requests = expectOk(await call("GET", "/private/sns/message-requests", { as: muter }));
    expectOk(await call("PUT", `/private/sns/message-requests/${requests[0].idRequest}`, { as: muter, body: { decision: "accept" } }));
    expect(await page(muter, "", room)).toEqual([["", true]]);
    const chats = expectOk(await call("GET", "/private/sns/chatroom/list", { as: muter }));
    expect([chats[0].lastMessage.message, chats[0].lastMessage.mutedWord]).toEqual(["", true]);
    expect(await page(stranger, "", room)).toEqual([["给你剧透一下", false]]);
  });

  it("withholds guestbook entries from the muted owner; the author still sees theirs; show anyway is owner or author only", async () => {
    const [owner, author, third] = [await verifiedMember(), await verifiedMember(), await verifiedMember()];
    const foreign = await signUp("ABC");
    expectOk(await addWord(owner, { phrase: "ネタバレ" }));
    expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "ﾈﾀﾊﾞﾚ: he dies" } }));
    expectOk(await call("POST", "/private/core/leave-message", { as: author, body: { code: owner.memberNo, text: "hello there" } }));
    const mine = expectOk(await call("GET", `/private/core/guestbooks/${owner.memberId}`, { as: owner }));
    expect(mine.items.map((e: any) => [e.message, Boolean(e.mutedWord)])).toEqual([
      ["hello there", false],
      ["", true],
    ]);
    expect(JSON.stringify(mine)).not.toContain("he dies");
    // The new-entry notice's excerpt is withheld too.
    const notices = await eventually(
      async () => expectOk(await call("GET", "/private/core/notifications", { as: owner })).items.filter((n: any) => n.type === "guestbook"),
      (items: any[]) => items.length === 2,
    );
    expect(notices.map((n: any) => n.params.excerpt)).toEqual(["hello there", ""]);
    const history = expectOk(await call("GET", `/private/core/guestbooks/history/${author.memberNo}`, { as: owner }));
    expect(history.items.map((e: any) => e.message)).toEqual(["hello there", ""]);
    const hidden = mine.items[1];
    // The author is not told: their history shows their own words.
    const theirs = expectOk(await call("GET", `/private/core/guestbooks/history/${owner.memberNo}`, { as: author }));
    expect(theirs.items.map((e: any) => [e.message, Boolean(e.mutedWord)])).toEqual([
      ["hello there", false],
      ["ﾈﾀﾊﾞﾚ: he dies", false],
    ]);
    // Show anyway: the owner and the author get the one entry; a third member, another tenant and a visitor do not.
    expect(expectOk(await call("GET", `/private/core/guestbooks/entry/${hidden.idGuestbook}`, { as: owner })).message).toBe("ﾈﾀﾊﾞﾚ: he dies");
    expect(expectOk(await call("GET", `/private/core/guestbooks/entry/${hidden.idGuestbook}`, { as: author })).message).toBe("ﾈﾀﾊﾞﾚ: he dies");
    expectFailure(await call("GET", `/private/core/guestbooks/entry/${hidden.idGuestbook}`, { as: third }), 404, "404000");
    expectFailure(await call("GET", `/private/core/guestbooks/entry/${hidden.idGuestbook}`, { as: foreign }), 404, "404000");
    expectFailure(await call("GET", `/private/core/guestbooks/entry/${hidden.idGuestbook}`, { as: null }), 401);
    expectFailure(await call("GET", "/private/core/guestbooks/entry/abc", { as: owner }), 400);
  });

  it("withholds live socket frames (new messages and thread replies) from the muter only", async () => {
    const [muter, author, other] = [await verifiedMember(), await verifiedMember(), await verifiedMember()];
    expectOk(await addWord(muter, { phrase: "ネタバレ" }));
    const room = `SMP~${PUBLIC_CHATROOM_ID}`;
    const [toMuter, toOther, toAuthor] = [
      (await openSocket(muter, "chat-room", room)) as TestSocket,
      (await openSocket(other, "chat-room", room)) as TestSocket,
      (await openSocket(author, "chat-room", room)) as TestSocket,
    ];
    await Promise.all([toMuter, toOther, toAuthor].map((s) => s.next((e) => e.type === "welcome")));
    const sent = expectOk(await post(author, { message: "ネタバレ live frame" }));
    const isIt = (e: any) => e.type === "chat.message" && e.message.idChatroomMessage === sent.idChatroomMessage;
    const [muted, plain, own] = await Promise.all([toMuter.next(isIt), toOther.next(isIt), toAuthor.next(isIt)]);
    expect([muted.message.message, muted.message.mutedWord, muted.message.payload]).toEqual(["", true, null]);
    expect(plain.message.message).toBe("ネタバレ live frame");
    expect(own.message.message).toBe("ネタバレ live frame");

    expectOk(await call("POST", `/private/sns/chatroom/messages/threads/${other.memberId}`, { as: other, body: { idChatroomMessage: sent.idChatroomMessage, message: "thread ネタバレ" } }));
    const isThread = (e: any) => e.type === "chat.thread" && e.idChatroomMessage === sent.idChatroomMessage;
    const [mutedThread, ownThread] = await Promise.all([toMuter.next(isThread), toOther.next(isThread)]);
    expect([mutedThread.thread.message, mutedThread.thread.mutedWord]).toEqual(["", true]);
    expect(ownThread.thread.message).toBe("thread ネタバレ");
    await eventually(async () => toAuthor.events.some(isThread), Boolean);
    expect(JSON.stringify(toMuter.events)).not.toContain("live frame");
    expect(JSON.stringify(toMuter.events)).not.toContain("thread ネタバレ");
    for (const s of [toMuter, toOther, toAuthor]) s.close();
  });
});

describe("the live fan-out's lookup", () => {
  it("names no one (so the rooms fail closed) when more phrases match than one read takes", async () => {
    const author = await signUp();
    const muter = await signUp();
    expectOk(await addWord(muter, { phrase: "flood" }));
    expect(await membersMuting(env, "SMP", "a flood of rain", author.memberId)).toEqual([muter.memberId]);
    // A script of accounts muting a common phrase: more matching rows than the cap.
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into muted_words (project_code, member_id, phrase, phrase_norm, created_at) select 'SMP', 'script-' || i, 'rain', 'rain', ? from n`,
    )
      .bind(MUTING_READ_LIMIT, Date.now())
      .run();
    expect(await membersMuting(env, "SMP", "a flood of rain", author.memberId)).toBeNull();
  });
});
