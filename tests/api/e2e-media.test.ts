import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { privateImage } from "../support/route-matrix";
import { block } from "./social-support";

/**
 * Everything private is encrypted (README Decisions "Everything private is encrypted"; SECURITY.md "End-to-end
 * encrypted private messages"): browser-encrypted images are opaque bytes stored exactly as sent under the private
 * kind `e2e` and served only to the two members; private replies in shared rooms and private thread replies carry
 * the signed envelope, which nobody else receives (they get the placeholder).
 */
let seq = 0;
const rid = () => `em-${Date.now().toString(36)}-${++seq}`;
const send = (from: Member, room: string, body: Record<string, unknown>) =>
  call("POST", `/private/sns/chatrooms/${room}/messages/${from.memberId}`, { as: from, body: { requestId: rid(), ...body } });

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
/** The shape chat-crypto.ts sends; the server never reads inside it, so random bytes stand in for ciphertext. */
const envelope = (a: Member, b: Member, extra: Record<string, unknown> = {}) => ({
  type: "encrypted",
  alg: "RSA-OAEP-256+A256GCM",
  iv: b64(random(12)),
  data: b64(random(200)),
  keys: { [a.memberNo]: b64(random(256)), [b.memberNo]: b64(random(256)) },
  deviceKeys: { [a.memberNo]: { devA00000000000000001A: b64(random(256)) }, [b.memberNo]: { devB00000000000000001B: b64(random(256)) } },
  senderDevice: "devA00000000000000001A",
  sig: b64(random(64)),
  ...extra,
});

async function dressed(project = "SMP") {
  const m = await signUp(project);
  await env.DB.prepare("update profiles set avator = ?, qualify = 1, kyc_status = 1, nickname = ? where member_id = ?")
    .bind(`/media/${project}/${m.memberNo}/avatar/a.jpg`, `nick${m.memberNo}`, m.memberId)
    .run();
  return m;
}
async function pair() {
  const [a, b] = [await dressed(), await dressed()];
  for (const m of [a, b]) expectOk(await call("PUT", "/private/sns/chat-settings", { as: m, body: { acceptFrom: "everyone" } }));
  return [a, b] as const;
}

const ORIGINAL_NAME = "holiday-with-my-master.png";
/** Uploads `bytes` as a browser-encrypted image (under a revealing file name the server must not keep). */
async function encryptedUpload(as: Member, bytes: Uint8Array, name = ORIGINAL_NAME) {
  const form = new FormData();
  form.set("file", new File([bytes as BlobPart], name, { type: "application/octet-stream" }));
  form.set("type", "encrypted");
  return call("POST", `/private/core/files/${as.memberId}`, { as, body: form });
}
async function load(path: string, who: Member | null) {
  const response = await fetchWorker(path, { headers: who ? who.headers : {} });
  return { status: response.status, cacheControl: response.headers.get("Cache-Control"), type: response.headers.get("Content-Type"), bytes: new Uint8Array(await response.arrayBuffer()) };
}
const keyOf = (src: string) => src.slice("/private-media/".length);

describe("encrypted images", () => {
  it("are stored exactly as sent, as the private kind e2e, never decoded and never under /media", async () => {
    const a = await dressed();
    // Not an image at all (the server cannot tell and must not try): even bytes that start like a PNG stay as sent.
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...random(4000)]);
    const info = expectOk(await encryptedUpload(a, bytes));
    expect(info).toEqual({ key: keyOf(info.url), url: info.url, width: 0, height: 0, graphic: false });
    expect(info.url).toMatch(new RegExp(`^/private-media/SMP/${a.memberNo}/e2e/[A-Za-z0-9]{24}\\.bin$`));
    expect(info.url).not.toContain("holiday");
    const stored = await env.MEDIA.get(keyOf(info.url));
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);
    // No rendition, no second object for it.
    expect((await env.MEDIA.list({ prefix: `SMP/${a.memberNo}/` })).objects.map((o) => o.key)).toEqual([keyOf(info.url)]);
    // Its uploader loads the same bytes back, never cacheable, as opaque octets; /media refuses the key.
    const own = await load(info.url, a);
    expect(own).toMatchObject({ status: 200, cacheControl: "private, no-store", type: "application/octet-stream" });
    expect(own.bytes).toEqual(bytes);
    expect((await load(`/media/${keyOf(info.url)}`, a)).status).toBe(404);
    // Recorded for its uploader like a dm image; the original file name is kept nowhere in D1.
    const row = await env.DB.prepare("select * from chat_media where media_key = ?").bind(keyOf(info.url)).first();
    expect(row).toMatchObject({ member_id: a.memberId, id_chatroom_message: null });
    expect(JSON.stringify(await env.DB.prepare("select * from chat_media where member_id = ?").bind(a.memberId).all())).not.toContain("holiday");
  });

  it("bad input: too short to be ciphertext, encoded, or not a member — refused, nothing stored", async () => {
    const a = await dressed();
    expectFailure(await encryptedUpload(a, random(16)), 400);
    const form = new FormData();
    form.set("file", new File([random(100) as BlobPart], "x.bin"));
    form.set("type", "encrypted");
    form.set("encode", "true");
    expectFailure(await call("POST", `/private/core/files/${a.memberId}`, { as: a, body: form }), 400);
    expect((await env.MEDIA.list({ prefix: `SMP/${a.memberNo}/` })).objects).toEqual([]);
    const visitor = await fetchWorker(`/api/v7/private/core/files/${a.memberId}`, { method: "POST", body: form });
    expect(visitor.status).toBe(401);
  });

  it("in a one-to-one room: both members get the bytes; a third member, a visitor, another tenant and a blocked member get 404", async () => {
    const [a, b] = await pair();
    const [c, foreign] = [await dressed(), await dressed("ABC")];
    const room = directChatroomId(a.memberNo, b.memberNo);
    const bytes = random(3000);
    const src = expectOk(await encryptedUpload(a, bytes)).url as string;
    const payload = envelope(a, b, { media: src });
    const sent = expectOk(await send(a, room, { message: "", payload }));
    expect(sent.payload).toEqual(payload);
    expect(sent.message).toBe("");
    // The stored row holds the envelope and nothing readable (no caption, no file name).
    const row = await env.DB.prepare("select message, payload from chat_messages where id_chatroom_message = ?").bind(sent.idChatroomMessage).first<{ message: string; payload: string }>();
    expect(row!.message).toBe("");
    expect(JSON.parse(row!.payload)).toEqual(payload);
    expect(JSON.stringify(row)).not.toContain("holiday");

    for (const who of [a, b]) {
      const got = await load(src, who);
      expect(got).toMatchObject({ status: 200, cacheControl: "private, no-store" });
      expect(got.bytes).toEqual(bytes);
    }
    for (const who of [c, foreign, null]) {
      const got = await load(src, who);
      expect(got).toMatchObject({ status: 404, cacheControl: "private, no-store" });
      expect(got.bytes).not.toEqual(bytes);
    }
    expect((await load(src.replace("/SMP/", "/ABC/"), foreign)).status).toBe(404);
    expect(JSON.stringify((await call("GET", `/private/sns/chatroom/${room}/messages`, { as: c })).body)).not.toContain(src);

    // A block either way: the blocked side is refused at once.
    await block(b, a);
    expect((await load(src, b)).status).toBe(404);
    expect((await load(src, a)).status).toBe(200);
  });

  it("as a private reply in a public room: the recipient only besides the sender; others get the placeholder without the envelope", async () => {
    const [a, b] = await pair();
    const c = await dressed();
    const src = expectOk(await encryptedUpload(a, random(500))).url as string;
    const payload = envelope(a, b, { media: src });
    const sent = expectOk(await send(a, PUBLIC_CHATROOM_ID, { message: "", payload, isPrivate: true, toMemberNo: b.memberNo }));
    expect((await load(src, b)).status).toBe(200);
    expect((await load(src, c)).status).toBe(404);
    const seenByB = expectOk(await call("GET", `/private/sns/chatroom/messages/${sent.idChatroomMessage}`, { as: b }));
    expect(seenByB.payload).toEqual(payload);
    const seenByC = expectOk(await call("GET", `/private/sns/chatroom/messages/${sent.idChatroomMessage}`, { as: c }));
    expect(seenByC).toMatchObject({ placeholder: true, payload: null, message: "private message" });
    const page = JSON.stringify((await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages`, { as: c })).body);
    for (const needle of [src, payload.data, payload.sig]) expect(page).not.toContain(needle);
  });

  it("bind like dm images: not in public, not someone else's, not twice; gone with their message", async () => {
    const [a, b] = await pair();
    const c = await dressed();
    const room = directChatroomId(a.memberNo, b.memberNo);
    const mine = expectOk(await encryptedUpload(a, random(100))).url as string;
    const theirs = expectOk(await encryptedUpload(c, random(100))).url as string;
    // Not public, not without a recipient, not someone else's, not an /e2e/ address as a plain image.
    expectFailure(await send(a, PUBLIC_CHATROOM_ID, { message: "", payload: envelope(a, b, { media: mine }) }), 400);
    expectFailure(await send(a, PUBLIC_CHATROOM_ID, { message: "", payload: envelope(a, b, { media: mine }), toMemberNo: b.memberNo }), 400);
    expectFailure(await send(a, room, { message: "", payload: envelope(a, b, { media: theirs }) }), 400, "400708");
    expectFailure(await send(a, room, { message: "", payload: { type: "img", src: mine } }), 400);
    expectFailure(await send(a, room, { message: "", payload: envelope(a, b, { media: `/private-media/SMP/${a.memberNo}/dm/${"x".repeat(24)}.jpg` }) }), 400);
    expect((await load(mine, b)).status).toBe(404);

    const sent = expectOk(await send(a, room, { message: "", payload: envelope(a, b, { media: mine }) }));
    const d = await dressed();
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: d, body: { acceptFrom: "everyone" } }));
    expectFailure(await send(a, directChatroomId(a.memberNo, d.memberNo), { message: "", payload: envelope(a, d, { media: mine }) }), 400, "400708");
    expect((await load(mine, d)).status).toBe(404);

    expectOk(await call("DELETE", `/private/sns/chatroom/messages/${a.memberId}/${sent.idChatroomMessage}`, { as: a }));
    expect((await load(mine, b)).status).toBe(404);
    expect(await env.MEDIA.head(keyOf(mine))).toBeNull();
    // A plain private image still works beside them.
    expect(await privateImage(a)).toMatch(/\/dm\//);
  });
});

describe("encrypted private thread replies", () => {
  async function note(author: Member) {
    return expectOk(await send(author, PUBLIC_CHATROOM_ID, { message: "A note anyone may answer" }));
  }
  const reply = (as: Member, body: Record<string, unknown>) => call("POST", `/private/sns/chatroom/messages/threads/${as.memberId}`, { as, body });

  it("reach the note's author and the replier only; D1 keeps no text; others see the placeholder", async () => {
    const [author, replier, other] = [await dressed(), await dressed(), await dressed()];
    const parent = await note(author);
    const payload = envelope(replier, author);
    const answered = expectOk(await reply(replier, { idChatroomMessage: parent.idChatroomMessage, message: "", isPrivate: true, payload }));
    expect(answered).toMatchObject({ message: "", isPrivate: true, payload });
    const row = await env.DB.prepare("select message, payload from chat_threads where member_id = ?").bind(replier.memberId).first<{ message: string; payload: string }>();
    expect(row!.message).toBe("");
    expect(JSON.parse(row!.payload)).toEqual(payload);

    for (const who of [author, replier]) {
      const seen = expectOk(await call("GET", `/private/sns/chatroom/messages/${parent.idChatroomMessage}`, { as: who }));
      expect(seen.threads).toEqual([expect.objectContaining({ message: "", isPrivate: true, payload })]);
    }
    const seenByOther = expectOk(await call("GET", `/private/sns/chatroom/messages/${parent.idChatroomMessage}`, { as: other }));
    expect(seenByOther.threads).toEqual([expect.objectContaining({ message: "private message", isPrivate: true })]);
    expect(seenByOther.threads[0]).not.toHaveProperty("payload");
    const visitor = await call("GET", `/sns/chatroom/messages/${parent.idChatroomMessage}`, { as: null });
    for (const body of [JSON.stringify(seenByOther), JSON.stringify(visitor.body)]) for (const needle of [payload.data, payload.sig]) expect(body).not.toContain(needle);
  });

  it("must be private and well formed; a deleted account leaves the placeholder and no envelope", async () => {
    const [author, replier] = [await dressed(), await dressed()];
    const parent = await note(author);
    expectFailure(await reply(replier, { idChatroomMessage: parent.idChatroomMessage, message: "", isPrivate: false, payload: envelope(replier, author) }), 400, "400702");
    expectFailure(await reply(replier, { idChatroomMessage: parent.idChatroomMessage, message: "", isPrivate: true, payload: { ...envelope(replier, author), data: "not base64!" } }), 400);
    expectFailure(await reply(replier, { idChatroomMessage: parent.idChatroomMessage, message: "", isPrivate: true }), 400, "400701");
    expect((await env.DB.prepare("select count(*) as n from chat_threads where member_id = ?").bind(replier.memberId).first<{ n: number }>())!.n).toBe(0);

    expectOk(await reply(replier, { idChatroomMessage: parent.idChatroomMessage, message: "", isPrivate: true, payload: envelope(replier, author) }));
    expectOk(await call("DELETE", `/private/core/members/${replier.memberId}`, { as: replier, body: { password: replier.password } }));
    const row = await env.DB.prepare("select message, payload from chat_threads where member_id = ?").bind(replier.memberId).first();
    expect(row).toEqual({ message: "private message", payload: null });
  });
});
