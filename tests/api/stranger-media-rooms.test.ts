import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { HOME_CHATROOM_ID, PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, fetchWorker, signUp, withAvatar, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";

// README Decisions "Stranger media stays blurred", for images posted in shared rooms (room-image-blur.ts): a reader
// whose setting covers the author gets the image's blurred rendition on the room's pages (the shared kept page and
// the others), a note's page and live socket frames, and never the original; a per-item reveal gives one original.
// These tests read the raw text of each answer and frame and look for the originals' and renditions' URLs.

const P = "SMR";
let seq = 0;

/** An upload recorded as the media pipeline records it: the file and its rendition (their own keys). */
const imageKey = (m: Member, name: string) => `${m.projectCode}/${m.memberNo}/photo/${name}.jpg`;
const blurKey = (m: Member, name: string) => `${m.projectCode}/${m.memberNo}/blur/${name}-b.jpg`;
const original = (m: Member, name = "room") => `/media/${imageKey(m, name)}`;
const rendition = (m: Member, name = "room") => `/media/${blurKey(m, name)}`;
const SCRAMBLE_KEY = "ab".repeat(32);

async function member(project = P) {
  // Posting needs an avatar; images in the shared rooms need kycStatus above 0 (§5).
  const m = await withAvatar(await signUp(project));
  await env.DB.prepare("update profiles set kyc_status = 1 where member_id = ?").bind(m.memberId).run();
  return m;
}

async function upload(m: Member, name: string) {
  await env.DB.prepare("insert into media_uploads (key, project_code, member_id, kind, width, height, graphic, rendition_key, created_at) values (?, ?, ?, 'photo', 400, 300, 0, ?, ?)")
    .bind(imageKey(m, name), m.projectCode, m.memberId, blurKey(m, name), Date.now())
    .run();
}

async function postImage(m: Member, name = "room", room = PUBLIC_CHATROOM_ID, encoded = false) {
  const payload = encoded ? { type: "encodedImage", src: original(m, name), key: SCRAMBLE_KEY } : { type: "img", src: original(m, name) };
  const sent = expectOk(await call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as: m, body: { requestId: `smr-${Date.now().toString(36)}-${++seq}`, message: "", payload } }));
  return sent.idChatroomMessage as number;
}

async function raw(path: string, as: Member | null) {
  const response = await fetchWorker(`/api/v7${path}`, { headers: as?.headers ?? {} });
  const text = await response.text();
  expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  return text;
}

const setMode = async (m: Member, strangerMedia: string) =>
  expect(expectOk(await call("PUT", `/private/core/stranger-media/${m.memberId}`, { as: m, body: { strangerMedia } }))).toEqual({ strangerMedia });

const page = (room = PUBLIC_CHATROOM_ID) => `/private/sns/chatroom/${room}/messages?pageSize=50`;

let viewer: Member, friend: Member, stranger: Member, foreign: Member;
let fromStranger: number, fromFriend: number, fromViewer: number, encodedFromStranger: number, textFromStranger: number;

beforeAll(async () => {
  [viewer, friend, stranger] = [await member(), await member(), await member()];
  foreign = await member("SMQ");
  expectOk(await call("POST", `/private/core/follows/${friend.memberNo}`, { as: viewer }));
  for (const m of [viewer, friend, stranger]) await upload(m, "room");
  await upload(stranger, "scrambled");
  await upload(stranger, "home");
  fromStranger = await postImage(stranger);
  encodedFromStranger = await postImage(stranger, "scrambled", PUBLIC_CHATROOM_ID, true);
  fromFriend = await postImage(friend);
  fromViewer = await postImage(viewer);
  await postImage(stranger, "home", HOME_CHATROOM_ID);
  textFromStranger = expectOk(
    await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${stranger.memberId}`, { as: stranger, body: { requestId: `smr-text-${++seq}`, message: "just words" } }),
  ).idChatroomMessage;
});

describe("what a member with the setting on reads", () => {
  it("notFollowed: the stranger's images as renditions only (pages, kept page, one member's page, a note); the followed member's and the reader's own originals", async () => {
    await setMode(viewer, "notFollowed");
    for (const path of [page(), `${page()}&memberNo=${stranger.memberNo}`, page(HOME_CHATROOM_ID), `/private/sns/chatroom/messages/${fromStranger}`, `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/message/set`]) {
      const text = await raw(path, viewer);
      expect(text, path).not.toContain(`/${stranger.memberNo}/photo/`);
      expect(text, path).not.toContain(SCRAMBLE_KEY);
      expect(text, path).toContain(`/${stranger.memberNo}/blur/`);
    }
    const messages = expectOk(await call("GET", page(), { as: viewer })) as { idChatroomMessage: number; payload: unknown; strangerBlur?: boolean }[];
    const byId = new Map(messages.map((m) => [m.idChatroomMessage, m]));
    expect(byId.get(fromStranger)).toMatchObject({ payload: { type: "img", src: rendition(stranger) }, strangerBlur: true });
    // An encoded image becomes the plain rendition: neither its scrambled file nor its key.
    expect(byId.get(encodedFromStranger)).toMatchObject({ payload: { type: "img", src: rendition(stranger, "scrambled") }, strangerBlur: true });
    expect(byId.get(fromFriend)).toMatchObject({ payload: { type: "img", src: original(friend) } });
    expect(byId.get(fromFriend)?.strangerBlur).toBeUndefined();
    expect(byId.get(fromViewer)).toMatchObject({ payload: { type: "img", src: original(viewer) } });
    expect(byId.get(textFromStranger)?.strangerBlur).toBeUndefined();
    const note = expectOk(await call("GET", `/private/sns/chatroom/messages/${fromFriend}`, { as: viewer }));
    expect(note.payload).toEqual({ type: "img", src: original(friend) });
  });

  it("everyone: every other member's images as renditions, the reader's own original", async () => {
    await setMode(viewer, "everyone");
    for (const path of [page(), `/private/sns/chatroom/messages/${fromFriend}`]) {
      const text = await raw(path, viewer);
      for (const m of [stranger, friend]) expect(text, path).not.toContain(`/${m.memberNo}/photo/`);
    }
    const text = await raw(page(), viewer);
    expect(text).toContain(rendition(friend));
    expect(text).toContain(original(viewer));
    expect(text).not.toContain(rendition(viewer));
    await setMode(viewer, "off");
  });

  it("off: originals, as before", async () => {
    const text = await raw(page(), viewer);
    expect(text).toContain(original(stranger));
    expect(text).not.toContain(rendition(stranger));
    expect(text).not.toContain("strangerBlur");
  });

  it("the socket sends the same: live frames and a reconnect's replay", async () => {
    await setMode(viewer, "notFollowed");
    const socket = (await openSocket(viewer, "chat-room", `${P}~${PUBLIC_CHATROOM_ID}`)) as TestSocket;
    await socket.next((e) => e.type === "welcome");
    await upload(stranger, "live");
    await upload(friend, "live");
    const live = await postImage(stranger, "live");
    const liveFriend = await postImage(friend, "live");
    const own = await postImage(viewer, "room");
    const strangerFrame = JSON.stringify(await socket.next((e) => e.type === "chat.message" && e.message.idChatroomMessage === live));
    const friendFrame = JSON.stringify(await socket.next((e) => e.type === "chat.message" && e.message.idChatroomMessage === liveFriend));
    const ownFrame = JSON.stringify(await socket.next((e) => e.type === "chat.message" && e.message.idChatroomMessage === own));
    socket.close();
    expect(strangerFrame).toContain(rendition(stranger, "live"));
    expect(strangerFrame).not.toContain(original(stranger, "live"));
    expect(strangerFrame).toContain(`"strangerBlur":true`);
    expect(friendFrame).toContain(original(friend, "live"));
    expect(ownFrame).toContain(original(viewer));
    // A reconnect's replay is the page read for the reader.
    const replay = (await openSocket(viewer, "chat-room", `${P}~${PUBLIC_CHATROOM_ID}`, `since=${fromStranger - 1}`)) as TestSocket;
    await replay.next((e) => e.type === "chat.synced");
    replay.close();
    const frames = JSON.stringify(replay.events);
    expect(frames).toContain(rendition(stranger, "live"));
    expect(frames).not.toContain(`/${stranger.memberNo}/photo/`);
    expect(frames).not.toContain(SCRAMBLE_KEY);
    expect(frames).toContain(original(friend, "live"));
    await setMode(viewer, "off");
  });
});

describe("the others looking", () => {
  it("a visitor, the author and another member are unaffected by the reader's setting", async () => {
    await setMode(viewer, "everyone");
    const visitor = await raw(`/public/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50&project=${P}`, null);
    expect(visitor).toContain(original(stranger));
    expect(visitor).toContain(original(viewer));
    expect(await raw(page(), stranger)).toContain(original(viewer));
    expect(await raw(page(), friend)).toContain(original(stranger));
    expect(await raw(`/public/sns/chatroom/messages/${fromStranger}?project=${P}`, null)).toContain(original(stranger));
  });

  it("another tenant reads none of this tenant's room", async () => {
    expect(await raw(page(), foreign)).not.toContain(`/${P}/`);
    expectFailure(await call("GET", `/private/sns/chatroom/messages/${fromStranger}`, { as: foreign }), 404);
  });
});

describe("per-item reveal", () => {
  it("gives the member one message's original (an encoded image with its key), and nothing is remembered", async () => {
    await setMode(viewer, "everyone");
    expect(expectOk(await call("POST", `/private/sns/chatroom/messages/${fromStranger}/reveal-image`, { as: viewer }))).toEqual({
      idChatroomMessage: fromStranger,
      payload: { type: "img", src: original(stranger) },
    });
    expect(expectOk(await call("POST", `/private/sns/chatroom/messages/${encodedFromStranger}/reveal-image`, { as: viewer }))).toEqual({
      idChatroomMessage: encodedFromStranger,
      payload: { type: "encodedImage", src: original(stranger, "scrambled"), key: SCRAMBLE_KEY },
    });
    // Only that item: the page still carries renditions.
    const text = await raw(page(), viewer);
    expect(text).not.toContain(original(stranger));
    expect(text).toContain(rendition(stranger));
  });

  it("is not found for a message without an image, an unknown id, another tenant; refused to a visitor; 400 for a bad id", async () => {
    expectFailure(await call("POST", `/private/sns/chatroom/messages/${textFromStranger}/reveal-image`, { as: viewer }), 404);
    expectFailure(await call("POST", `/private/sns/chatroom/messages/99999999/reveal-image`, { as: viewer }), 404);
    expectFailure(await call("POST", `/private/sns/chatroom/messages/${fromStranger}/reveal-image`, { as: foreign }), 404);
    expectFailure(await call("POST", `/private/sns/chatroom/messages/${fromStranger}/reveal-image`, { as: null }), 401);
    expectFailure(await call("POST", `/private/sns/chatroom/messages/not-a-number/reveal-image`, { as: viewer }), 400);
  });

  it("is not found once a block stands between the reader and the author, either way", async () => {
    const blocker = await member();
    await upload(blocker, "room");
    const fromBlocker = await postImage(blocker);
    expect(expectOk(await call("POST", `/private/sns/chatroom/messages/${fromBlocker}/reveal-image`, { as: viewer })).payload.src).toBe(original(blocker));
    expectOk(await call("POST", `/private/core/blocks`, { as: blocker, body: { targetMemberNo: viewer.memberNo } }));
    expectFailure(await call("POST", `/private/sns/chatroom/messages/${fromBlocker}/reveal-image`, { as: viewer }), 404);
    expectFailure(await call("POST", `/private/sns/chatroom/messages/${fromViewer}/reveal-image`, { as: blocker }), 404);
    expect(await raw(page(), viewer)).not.toContain(`/${blocker.memberNo}/`);
    await setMode(viewer, "off");
  });
});
