import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, fetchWorker, signUp, withAvatar, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";

// README Decisions "Stranger media stays blurred": a member's `strangerMedia` setting (off / notFollowed / everyone)
// makes the server send them other members' avatars and photos as the blurred rendition on every list they view.
// These tests read the raw text of each answer and frame and look for the originals' and renditions' URLs.

const P = "STB";
let seq = 0;

/** `withAvatar` stores `/media/<P>/<no>/avatar/poster.jpg` and its rendition `/media/<P>/<no>/blur/poster.jpg`. */
const original = (m: Member) => `/${m.memberNo}/avatar/poster.jpg`;
const rendition = (m: Member) => `/${m.memberNo}/blur/poster.jpg`;
const photo = (m: Member) => `/${m.memberNo}/photo/pic.jpg`;
const photoBlur = (m: Member) => `/${m.memberNo}/blur/pic.jpg`;

async function member(nickname: string, project = P) {
  const m = await withAvatar(await signUp(project));
  expectOk(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body: { nickname, introduction: "A long enough introduction to be listed.", showPosition: true } }));
  expectOk(await call("PUT", `/private/core/geolocation/${m.memberId}`, { as: m, body: { latitude: 35.68, longitude: 139.76 } }));
  // Leaving a guestbook message needs kycStatus 1 (§6).
  await env.DB.prepare("update profiles set kyc_status = 1 where member_id = ?").bind(m.memberId).run();
  return m;
}

async function photoOf(m: Member) {
  await env.DB.prepare("insert into banners (project_code, member_id, member_no, image, blur_image, pickable, width, height, created_at) values (?, ?, ?, ?, ?, 1, 400, 300, ?)")
    .bind(m.projectCode, m.memberId, m.memberNo, `/media/${m.projectCode}${photo(m)}`, `/media/${m.projectCode}${photoBlur(m)}`, Date.now())
    .run();
  return (await env.DB.prepare("select max(id_banner) as id from banners where member_id = ?").bind(m.memberId).first<{ id: number }>())!.id;
}

const say = async (m: Member, message: string, room = PUBLIC_CHATROOM_ID) =>
  expectOk(await call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as: m, body: { requestId: `stb-${Date.now().toString(36)}-${++seq}`, message } }));

async function raw(path: string, as: Member | null) {
  const response = await fetchWorker(`/api/v7${path}`, { headers: as?.headers ?? {} });
  const text = await response.text();
  expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  return text;
}

const setMode = async (m: Member, strangerMedia: string) =>
  expect(expectOk(await call("PUT", `/private/core/stranger-media/${m.memberId}`, { as: m, body: { strangerMedia } }))).toEqual({ strangerMedia });

/** Every list the issue names, as the viewer sees it: requests tray, guestbook, nearby, notifications, chat, masonry. */
const surfaces = (v: Member) => ({
  requests: `/private/sns/message-requests`,
  guestbook: `/private/core/guestbooks/${v.memberId}`,
  nearby: `/private/core/geolocation/${P}/nearby`,
  notifications: `/private/core/notifications`,
  chat: `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`,
  home: `/private/core/home/${P}`,
  masonry: `/private/core/banners/${P}`,
});
/** Where the stranger's card (or photo) appears; the followed member is not in the requests tray (followed = direct). */
const strangerOn = ["requests", "guestbook", "nearby", "notifications", "chat", "home", "masonry"] as const;
const friendOn = ["guestbook", "nearby", "notifications", "chat", "home", "masonry"] as const;

let viewer: Member, friend: Member, stranger: Member, foreign: Member;
let strangerPhoto: number;

beforeAll(async () => {
  [viewer, friend, stranger] = [await member("Stb Viewer"), await member("Stb Friend"), await member("Stb Stranger")];
  foreign = await member("Stb Foreign", "STC");
  // The viewer follows the friend only; both others follow the viewer (a notification each) and sign the guestbook.
  expectOk(await call("POST", `/private/core/follows/${friend.memberNo}`, { as: viewer }));
  for (const m of [friend, stranger]) {
    expectOk(await call("POST", `/private/core/follows/${viewer.memberNo}`, { as: m }));
    expectOk(await call("POST", `/private/core/guestbooks/${viewer.memberNo}`, { as: m, body: { message: `from ${m.memberNo}` } }));
    await say(m, `public from ${m.memberNo}`);
  }
  strangerPhoto = await photoOf(stranger);
  await photoOf(friend);
  await photoOf(viewer);
  // The stranger's private message waits in the viewer's requests tray (default contact setting: members they follow).
  await say(stranger, "hello, we have not met", directChatroomId(stranger.memberNo, viewer.memberNo));
});

describe("the setting (owner only)", () => {
  it("is off by default, is stored, and refuses other values", async () => {
    expect(expectOk(await call("GET", `/private/core/stranger-media/${viewer.memberId}`, { as: viewer }))).toEqual({ strangerMedia: "off" });
    await setMode(viewer, "everyone");
    expect(expectOk(await call("GET", `/private/core/stranger-media/${viewer.memberId}`, { as: viewer }))).toEqual({ strangerMedia: "everyone" });
    expectFailure(await call("PUT", `/private/core/stranger-media/${viewer.memberId}`, { as: viewer, body: { strangerMedia: "sometimes" } }), 400);
    expectFailure(await call("PUT", `/private/core/stranger-media/${viewer.memberId}`, { as: viewer, body: { strangerMedia: "off", extra: 1 } }), 400);
    await setMode(viewer, "off");
  });

  it("is nobody else's to read or change: another member, a visitor, another tenant", async () => {
    for (const as of [stranger, foreign]) {
      expectFailure(await call("GET", `/private/core/stranger-media/${viewer.memberId}`, { as }), 403);
      expectFailure(await call("PUT", `/private/core/stranger-media/${viewer.memberId}`, { as, body: { strangerMedia: "everyone" } }), 403);
    }
    expectFailure(await call("GET", `/private/core/stranger-media/${viewer.memberId}`, { as: null }), 401);
    expect(expectOk(await call("GET", `/private/core/stranger-media/${viewer.memberId}`, { as: viewer }))).toEqual({ strangerMedia: "off" });
  });
});

describe("what leaves the server for the member, per setting", () => {
  it("off: originals of everyone on every surface", async () => {
    await setMode(viewer, "off");
    for (const [name, path] of Object.entries(surfaces(viewer))) {
      const text = await raw(path, viewer);
      if ((strangerOn as readonly string[]).includes(name)) expect(text, name).toContain(name === "masonry" ? photo(stranger) : original(stranger));
      expect(text, name).not.toContain(rendition(stranger));
      expect(text, name).not.toContain(photoBlur(stranger));
    }
  });

  it("notFollowed: the stranger's renditions only, the followed member's originals, the member's own original", async () => {
    await setMode(viewer, "notFollowed");
    for (const [name, path] of Object.entries(surfaces(viewer))) {
      const text = await raw(path, viewer);
      expect(text, name).not.toContain(original(stranger));
      expect(text, name).not.toContain(photo(stranger));
      if ((strangerOn as readonly string[]).includes(name)) expect(text, name).toContain(name === "masonry" ? photoBlur(stranger) : rendition(stranger));
      if ((friendOn as readonly string[]).includes(name)) expect(text, name).toContain(name === "masonry" ? photo(friend) : original(friend));
      expect(text, name).not.toContain(rendition(friend));
      expect(text, name).not.toContain(rendition(viewer));
    }
    // The photo masonry flags the stranger's photo blurred, so the page offers its reveal.
    const masonry = expectOk(await call("GET", `/private/core/banners/${P}`, { as: viewer })) as { memberNo: string; blur: boolean; image: string }[];
    expect(masonry.find((b) => b.memberNo === stranger.memberNo)).toMatchObject({ blur: true, image: `/media/${P}${photoBlur(stranger)}` });
    expect(masonry.find((b) => b.memberNo === friend.memberNo)).toMatchObject({ blur: false });
  });

  it("everyone: every other member's renditions, the member's own original", async () => {
    await setMode(viewer, "everyone");
    for (const [name, path] of Object.entries(surfaces(viewer))) {
      const text = await raw(path, viewer);
      for (const m of [stranger, friend]) {
        expect(text, name).not.toContain(original(m));
        expect(text, name).not.toContain(photo(m));
      }
      if ((friendOn as readonly string[]).includes(name)) expect(text, name).toContain(name === "masonry" ? photoBlur(friend) : rendition(friend));
    }
    // The member's own card and photo stay theirs.
    const home = await raw(`/private/core/home/${P}`, viewer);
    expect(home).toContain(original(viewer));
    expect(home).toContain(photo(viewer));
    await setMode(viewer, "off");
  });

  it("sends the same over the chat socket: renditions for members not followed, originals for followed ones", async () => {
    await setMode(viewer, "notFollowed");
    const socket = (await openSocket(viewer, "chat-room", `${P}~${PUBLIC_CHATROOM_ID}`)) as TestSocket;
    await socket.next((e) => e.type === "welcome");
    await say(stranger, "live from the stranger");
    await say(friend, "live from the friend");
    const fromStranger = JSON.stringify(await socket.next((e) => e.type === "chat.message" && e.message.message === "live from the stranger"));
    const fromFriend = JSON.stringify(await socket.next((e) => e.type === "chat.message" && e.message.message === "live from the friend"));
    socket.close();
    expect(fromStranger).toContain(rendition(stranger));
    expect(fromStranger).not.toContain(original(stranger));
    expect(fromFriend).toContain(original(friend));
    await setMode(viewer, "off");
  });
});

describe("the others looking", () => {
  it("the affected member, another member and another tenant are unaffected by the viewer's setting", async () => {
    await setMode(viewer, "everyone");
    // The stranger (whose media the viewer blurs) sees the viewer's original and their own.
    const theirs = await raw(`/private/core/home/${P}`, stranger);
    expect(theirs).toContain(original(viewer));
    expect(theirs).toContain(original(stranger));
    expect(await raw(`/private/core/banners/${P}`, friend)).toContain(photo(stranger));
    // Another tenant sees none of this tenant's members.
    expect(await raw(`/private/core/banners/STC`, foreign)).not.toContain(`/${stranger.memberNo}/`);
    await setMode(viewer, "off");
  });

  it("a visitor gets renditions as always", async () => {
    const text = await raw(`/public/core/banners/${P}`, null);
    expect(text).toContain(photoBlur(stranger));
    expect(text).not.toContain(photo(stranger));
  });
});

describe("per-item reveal", () => {
  it("gives the member one avatar's or photo's original, and nothing is remembered", async () => {
    await setMode(viewer, "everyone");
    expect(expectOk(await call("POST", `/private/core/stranger-media/reveal/${stranger.memberNo}`, { as: viewer }))).toEqual({
      memberNo: stranger.memberNo,
      avator: `/media/${P}${original(stranger)}`,
      blur: false,
    });
    expect(expectOk(await call("POST", `/private/core/banners/${strangerPhoto}/reveal`, { as: viewer }))).toMatchObject({ image: `/media/${P}${photo(stranger)}` });
    // The lists still carry only the rendition.
    expect(await raw(`/private/core/banners/${P}`, viewer)).not.toContain(photo(stranger));
    await setMode(viewer, "off");
  });

  it("keeps the other rules: a `blur` member's avatar stays the rendition", async () => {
    const flagged = await member("Stb Flagged");
    await env.DB.prepare("update profiles set blur = 1 where member_id = ?").bind(flagged.memberId).run();
    expect(expectOk(await call("POST", `/private/core/stranger-media/reveal/${flagged.memberNo}`, { as: viewer }))).toMatchObject({ avator: `/media/${P}${rendition(flagged)}`, blur: true });
  });

  it("is refused to a visitor (401), another tenant and a blocked member either way (404)", async () => {
    expectFailure(await call("POST", `/private/core/stranger-media/reveal/${stranger.memberNo}`, { as: null }), 401);
    expectFailure(await call("POST", `/private/core/stranger-media/reveal/${stranger.memberNo}`, { as: foreign }), 404);
    expectFailure(await call("POST", `/private/core/stranger-media/reveal/99999999`, { as: viewer }), 404);
    expectFailure(await call("POST", `/private/core/stranger-media/reveal/not-a-number`, { as: viewer }), 400);
    const blocker = await member("Stb Blocker");
    expectOk(await call("POST", `/private/core/blocks`, { as: blocker, body: { targetMemberNo: viewer.memberNo } }));
    expectFailure(await call("POST", `/private/core/stranger-media/reveal/${blocker.memberNo}`, { as: viewer }), 404);
    expectFailure(await call("POST", `/private/core/stranger-media/reveal/${viewer.memberNo}`, { as: blocker }), 404);
  });
});
