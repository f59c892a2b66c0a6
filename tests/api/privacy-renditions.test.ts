import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";
import { form, imageBytes } from "./profiles-helpers";

// README Decisions "Visitors get a blurred rendition, never the original": every avatar and photo upload stores a
// small blurred rendition under a key of its own; visitors, safe-mode members and everyone looking at a `blur` member
// or photo get only the rendition's URL. These tests read the raw text of every answer such a viewer gets and look
// for the originals' random ids.

const P = "RND";
let seq = 0;

/** A sharp mid-tone checkerboard (no near-black or near-white, so the §5 graphic check passes): lots of detail. */
const checkers = (x: number, y: number): [number, number, number] => ((Math.floor(x / 8) + Math.floor(y / 8)) % 2 ? [70, 80, 170] : [200, 170, 90]);
/** Mostly near-black: the upload is graphic, so the photo is `blur` (and not pickable). */
const dark = (x: number): [number, number, number] => (x < 250 ? [8, 8, 8] : [120, 110, 100]);

/** The random id of a media URL or key (`…/<id>.jpg`): what must never leak, whatever path it is sent under. */
const idOf = (urlOrKey: string) => urlOrKey.split("/").at(-1)!.replace(/\.\w+$/, "");

async function upload(member: Member, kind: "avatar" | "photo", fill = checkers) {
  const size = kind === "avatar" ? 320 : 400;
  return expectOk(await call("POST", `/private/core/files/${member.projectCode}/${member.memberId}`, { as: member, body: form(imageBytes(size, kind === "avatar" ? size : 300, fill), kind) }));
}
const renditionOf = async (key: string) =>
  (await env.DB.prepare("select rendition_key as k from media_uploads where key = ?").bind(key).first<{ k: string | null }>())!.k!;
async function banner(member: Member, fill = checkers) {
  const photo = await upload(member, "photo", fill);
  const made = expectOk(await call("POST", `/private/core/banners/${member.memberId}`, { as: member, body: { image: photo.url, pickable: true, width: photo.width, height: photo.height } }));
  return { ...made, key: photo.key as string, rendition: await renditionOf(photo.key) };
}
const say = async (m: Member, message: string) => expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { requestId: `rendition-${Date.now().toString(36)}-${++seq}`, message } }));

/** The raw text of an answer (never parsed first: a key in any field, header or nesting counts). */
async function raw(path: string, as: Member | null, method = "GET") {
  const response = await fetchWorker(`/api/v7${path}`, { method, headers: as?.headers ?? {} });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text.slice(0, 300)}`).toBe(200);
  return text + JSON.stringify([...response.headers]);
}

/** Every list, card and page call that carries others' cards or photos, as a visitor (public) or a member (private). */
function surfaces(as: Member | null, t: { a: Member; b: Member; messageId: number }) {
  const scope = as ? "private" : "public";
  const q = as ? "" : `?project=${P}`;
  const and = as ? "?" : `?project=${P}&`;
  const paths = [
    `/${scope}/core/profiles/${P}/member/${t.a.memberNo}`,
    `/${scope}/core/profiles/${P}/member/${t.b.memberNo}`,
    `/${scope}/core/profiles/${P}/page/${t.a.memberNo}`,
    `/${scope}/core/profiles/${P}/page/${t.b.memberNo}`,
    `/${scope}/core/profiles/${P}/feed`,
    `/${scope}/core/profiles/${P}/hot?pageSize=100`,
    `/${scope}/core/profiles/${P}/new`,
    `/${scope}/core/profiles/${P}/last-access`,
    `/${scope}/core/profiles/${P}/last-chat-message`,
    `/${scope}/core/profiles/${P}/all`,
    `/${scope}/core/profiles/${P}/search?keyword=Rend`,
    `/${scope}/sns/visitors/${P}/code/${t.a.memberNo}`,
    `/${scope}/core/banners/users/${t.a.memberNo}${q}`,
    `/${scope}/core/banners/${P}`,
    `/${scope}/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages${and}pageSize=50`,
    `/${scope}/sns/chatroom/messages/${t.messageId}${q}`,
    `/${scope}/sns/chatroom/${PUBLIC_CHATROOM_ID}/last-message${q}`,
  ];
  if (as) {
    paths.push(
      `/private/core/home/${P}`,
      `/private/core/profiles/pick-for-you`,
      `/private/core/banners/review/${P}`,
      `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/message/set`,
      `/private/sns/presence/${P}`,
      `/private/core/profiles/${t.a.memberId}`,
    );
  }
  return paths;
}

type World = {
  a: Member; b: Member; safe: Member; plain: Member; foreign: Member;
  avatar: { key: string; url: string; rendition: string };
  blurAvatar: { key: string; rendition: string };
  photo: { idBanner: number; key: string; rendition: string };
  blurPhoto: { idBanner: number; key: string; rendition: string };
  messageId: number;
  bMessage: number;
};
let w: World;

beforeAll(async () => {
  const [a, b, safe, plain] = [await signUp(P), await signUp(P), await signUp(P), await signUp(P)];
  const foreign = await signUp("RNF");
  const avatar = await upload(a, "avatar");
  const blurAvatar = await upload(b, "avatar");
  for (const m of [safe, plain, foreign]) await upload(m, "avatar");
  for (const [m, nickname] of [[a, "Rend A"], [b, "Rend B"], [safe, "Rend Safe"], [plain, "Rend Plain"]] as const) {
    expectOk(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body: { nickname, introduction: "A long enough introduction to be listed." } }));
  }
  // b speaks before being blur-flagged: a blurred avatar may not post (§5; tests/api/posting-rules.test.ts).
  const fromB = await say(b, "hello from b");
  // Nothing in the API turns `blur` on for a member (the operators do); set it as they would.
  await env.DB.prepare("update profiles set blur = 1 where member_id = ?").bind(b.memberId).run();
  expect(expectOk(await call("PATCH", `/private/core/profiles/${safe.memberId}`, { as: safe, body: { safeMode: true } }))).toMatchObject({ safeMode: true });
  const photo = await banner(a);
  const blurPhoto = await banner(a, dark);
  expect(blurPhoto).toMatchObject({ blur: true, pickable: false });
  const message = await say(a, "hello from a");
  // b visits a: b's card shows in a's footprints, on a's page.
  expectOk(await call("GET", `/private/core/profiles/${P}/page/${a.memberNo}`, { as: b }));
  w = {
    a, b, safe, plain, foreign,
    avatar: { key: avatar.key, url: avatar.url, rendition: await renditionOf(avatar.key) },
    blurAvatar: { key: blurAvatar.key, rendition: await renditionOf(blurAvatar.key) },
    photo, blurPhoto,
    messageId: message.idChatroomMessage,
    bMessage: fromB.idChatroomMessage,
  };
});

describe("blurred renditions: what each viewer gets", () => {
  it("stores a rendition under its own random key beside every avatar and photo upload, and records it", async () => {
    for (const [original, rendition] of [[w.avatar.key, w.avatar.rendition], [w.blurAvatar.key, w.blurAvatar.rendition], [w.photo.key, w.photo.rendition], [w.blurPhoto.key, w.blurPhoto.rendition]]) {
      expect(rendition).toMatch(new RegExp(`^${P}/\\d+/blur/[A-Za-z0-9]{24}\\.jpg$`));
      // Independent random ids: nothing of the original's id is in the rendition's (no 5 characters in a row).
      const [o, r] = [idOf(original!), idOf(rendition!)];
      for (let i = 0; i + 5 <= o.length; i++) expect(r, `${o} vs ${r}`).not.toContain(o.slice(i, i + 5));
    }
    const profile = await env.DB.prepare("select avator, avator_blur from profiles where member_id = ?").bind(w.a.memberId).first<{ avator: string; avator_blur: string }>();
    expect(profile).toEqual({ avator: w.avatar.url, avator_blur: `/media/${w.avatar.rendition}` });
    const row = await env.DB.prepare("select image, blur_image from banners where id_banner = ?").bind(w.photo.idBanner).first<{ image: string; blur_image: string }>();
    expect(row).toEqual({ image: `/media/${w.photo.key}`, blur_image: `/media/${w.photo.rendition}` });
  });

  it("serves the rendition from /media: a small JPEG whose detail is gone", async () => {
    const response = await fetchWorker(`/media/${w.avatar.rendition}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(3000);
    const rendition = PhotonImage.new_from_byteslice(bytes);
    const original = PhotonImage.new_from_byteslice(new Uint8Array(await (await fetchWorker(`/media/${w.avatar.key}`)).arrayBuffer()));
    expect([rendition.get_width(), rendition.get_height()]).toEqual([48, 48]);
    // The checkerboard's 8 px squares (20 to a side of the original) are gone: neighbouring pixels barely differ,
    // and the picture is close to one flat colour.
    const detail = (image: PhotonImage) => {
      const px = image.get_raw_pixels();
      const width = image.get_width();
      let steps = 0, n = 0, sum = 0, squares = 0;
      for (let i = 0; i < px.length; i += 4) {
        const luma = (px[i]! + px[i + 1]! + px[i + 2]!) / 3;
        sum += luma;
        squares += luma * luma;
        if ((i / 4) % width < width - 1) {
          steps += Math.abs(luma - (px[i + 4]! + px[i + 5]! + px[i + 6]!) / 3);
          n++;
        }
      }
      const count = px.length / 4;
      return { step: steps / n, deviation: Math.sqrt(squares / count - (sum / count) ** 2) };
    };
    const [sharp, blurred] = [detail(original), detail(rendition)];
    expect(sharp.deviation).toBeGreaterThan(20);
    expect(sharp.step).toBeGreaterThan(8);
    expect(blurred.step).toBeLessThan(1.5);
    expect(blurred.deviation).toBeLessThan(sharp.deviation / 4);
    rendition.free();
    original.free();
  });

  it("never gives a visitor an original: every list, card, page and chat call carries renditions only", async () => {
    const secrets = [idOf(w.avatar.key), idOf(w.blurAvatar.key), idOf(w.photo.key), idOf(w.blurPhoto.key)];
    let seen = "";
    for (const path of surfaces(null, w)) {
      const text = await raw(path, null);
      for (const secret of secrets) expect(text.includes(secret), `${path} holds an original`).toBe(false);
      seen += text;
    }
    for (const rendition of [w.avatar.rendition, w.blurAvatar.rendition, w.photo.rendition, w.blurPhoto.rendition]) expect(seen).toContain(idOf(rendition));
    const card = expectOk(await call("GET", `/public/core/profiles/${P}/member/${w.a.memberNo}`));
    expect(card).toMatchObject({ avator: `/media/${w.avatar.rendition}`, blur: true });
  });

  it("never gives a safe-mode member an original (their own card and photos stay theirs)", async () => {
    const secrets = [idOf(w.avatar.key), idOf(w.blurAvatar.key), idOf(w.photo.key), idOf(w.blurPhoto.key)];
    for (const path of surfaces(w.safe, w)) {
      const text = await raw(path, w.safe);
      for (const secret of secrets) expect(text.includes(secret), `${path} holds an original`).toBe(false);
    }
    const own = expectOk(await call("GET", `/private/core/profiles/${w.safe.memberId}`, { as: w.safe }));
    expect(own).toMatchObject({ safeMode: true, blur: false });
    expect(own.avator).toMatch(/\/avatar\//);
    // Switched off, the same member gets originals again.
    expectOk(await call("PATCH", `/private/core/profiles/${w.safe.memberId}`, { as: w.safe, body: { safeMode: false } }));
    expect(await raw(`/private/core/profiles/${P}/member/${w.a.memberNo}`, w.safe)).toContain(idOf(w.avatar.key));
    expectOk(await call("PATCH", `/private/core/profiles/${w.safe.memberId}`, { as: w.safe, body: { safeMode: true } }));
  });

  it("never gives anyone but its owner the original of a blur member's avatar or a blur photo", async () => {
    const secrets = [idOf(w.blurAvatar.key), idOf(w.blurPhoto.key)];
    let seen = "";
    for (const path of surfaces(w.plain, w)) {
      const text = await raw(path, w.plain);
      for (const secret of secrets) expect(text.includes(secret), `${path} holds an original`).toBe(false);
      seen += text;
    }
    // The same member gets a's ordinary avatar and photo: the check above could see an original.
    expect(seen).toContain(idOf(w.avatar.key));
    expect(seen).toContain(idOf(w.photo.key));
    expect(expectOk(await call("GET", `/private/core/profiles/${P}/member/${w.b.memberNo}`, { as: w.plain }))).toMatchObject({ avator: `/media/${w.blurAvatar.rendition}`, blur: true });
    // The owners keep their own.
    expect(await raw(`/private/core/profiles/${w.b.memberId}`, w.b)).toContain(idOf(w.blurAvatar.key));
    expect(await raw(`/private/core/banners/users/${w.a.memberNo}`, w.a)).toContain(idOf(w.blurPhoto.key));
  });

  it("pushes renditions over the chat socket to a safe-mode member, originals to others, in the same room", async () => {
    const room = `${P}~${PUBLIC_CHATROOM_ID}`;
    const safe = (await openSocket(w.safe, "chat-room", room)) as TestSocket;
    const plain = (await openSocket(w.plain, "chat-room", room)) as TestSocket;
    await safe.next((e) => e.type === "welcome");
    await plain.next((e) => e.type === "welcome");
    await say(w.a, "socket from a");
    // b's avatar is blur-flagged, so b may not post (§5): b's live frame is an edit of b's earlier message.
    expectOk(await call("PUT", `/private/sns/chatroom/messages/${w.b.memberId}/${w.bMessage}`, { as: w.b, body: { message: "socket from b" } }));
    const frames = async (socket: TestSocket) => {
      const fromA = await socket.next((e) => e.type === "chat.message" && e.message.message === "socket from a");
      const fromB = await socket.next((e) => e.type === "chat.edited" && e.message.message === "socket from b");
      return { a: JSON.stringify(fromA), b: JSON.stringify(fromB) };
    };
    const [toSafe, toPlain] = [await frames(safe), await frames(plain)];
    expect(toSafe.a).toContain(idOf(w.avatar.rendition));
    expect(toSafe.a).not.toContain(idOf(w.avatar.key));
    expect(toPlain.a).toContain(idOf(w.avatar.key));
    for (const frame of [toSafe.b, toPlain.b]) {
      expect(frame).toContain(idOf(w.blurAvatar.rendition));
      expect(frame).not.toContain(idOf(w.blurAvatar.key));
    }
    safe.close();
    plain.close();
  });

  it("gives no avatar, never the original, where an upload has no rendition (older rows, the seed before renditions)", async () => {
    const old = await signUp(P);
    await env.DB.prepare("update profiles set nickname = 'Rend Old', avator = ?, avator_blur = '', qualify = 1 where member_id = ?")
      .bind(`/media/${P}/${old.memberNo}/avatar/OldOriginal00000000000000.jpg`, old.memberId)
      .run();
    const visitor = expectOk(await call("GET", `/public/core/profiles/${P}/member/${old.memberNo}`));
    expect(visitor).toMatchObject({ avator: "", blur: true });
    expect(await raw(`/public/core/profiles/${P}/hot?pageSize=100`, null)).not.toContain("OldOriginal");
    expect(expectOk(await call("GET", `/private/core/profiles/${P}/member/${old.memberNo}`, { as: w.plain })).avator).toContain("OldOriginal");
  });

  it("keeps the rendition with the avatar: choosing an older upload again, or none", async () => {
    const m = await signUp(P);
    const first = await upload(m, "avatar");
    await upload(m, "avatar");
    const chosen = expectOk(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body: { avator: first.url } }));
    expect(chosen.avator).toBe(first.url);
    const stored = await env.DB.prepare("select avator_blur as r from profiles where member_id = ?").bind(m.memberId).first<{ r: string }>();
    expect(stored!.r).toBe(`/media/${await renditionOf(first.key)}`);
    expectOk(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body: { avator: "" } }));
    expect(await env.DB.prepare("select avator, avator_blur from profiles where member_id = ?").bind(m.memberId).first()).toEqual({ avator: "", avator_blur: "" });
  });
});

describe("POST /core/banners/{idBanner}/reveal: the 10-tap reveal of a blurred photo", () => {
  const reveal = (id: number, as: Member | null) => call("POST", `/private/core/banners/${id}/reveal`, { as });

  it("hands a member of the tenant the original, which /media serves", async () => {
    for (const member of [w.plain, w.safe, w.a]) {
      expect(expectOk(await reveal(w.blurPhoto.idBanner, member))).toEqual({ idBanner: w.blurPhoto.idBanner, image: `/media/${w.blurPhoto.key}` });
    }
    expect((await fetchWorker(`/media/${w.blurPhoto.key}`)).status).toBe(200);
  });

  it("is refused to a visitor (401), another tenant (404), a blocked pair either way (404) and an unknown photo (404)", async () => {
    expectFailure(await reveal(w.blurPhoto.idBanner, null), 401);
    expectFailure(await reveal(w.blurPhoto.idBanner, w.foreign), 404, "404501");
    const blocked = await signUp(P);
    const blocking = await signUp(P);
    const block = (from: Member, to: Member) =>
      env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)").bind(P, from.memberId, to.memberId, Date.now()).run();
    await block(w.a, blocked);
    await block(blocking, w.a);
    expectFailure(await reveal(w.blurPhoto.idBanner, blocked), 404, "404501");
    expectFailure(await reveal(w.blurPhoto.idBanner, blocking), 404, "404501");
    expectFailure(await reveal(999_999_999, w.plain), 404, "404501");
    expectFailure(await call("POST", "/private/core/banners/not-a-number/reveal", { as: w.plain }), 400);
  });
});
