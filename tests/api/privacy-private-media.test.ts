import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { pngBytes, privateImage } from "../support/route-matrix";

/**
 * Images of private messages (README Decisions "Private media"): uploaded as private, never under /media, served by
 * /private-media to the sender and the recipient of the live message only, re-checked on every request.
 */
let seq = 0;
const rid = () => `pm-${Date.now().toString(36)}-${++seq}`;
const send = (from: Member, room: string, body: Record<string, unknown>) =>
  call("POST", `/private/sns/chatrooms/${room}/messages/${from.memberId}`, { as: from, body: { requestId: rid(), ...body } });
const img = (src: string) => ({ message: "", payload: { type: "img", src } });

async function dressed(project = "SMP") {
  const m = await signUp(project);
  await env.DB.prepare("update profiles set avator = ?, qualify = 1, kyc_status = 1, nickname = ? where member_id = ?")
    .bind(`/media/${project}/${m.memberNo}/avatar/a.jpg`, `nick${m.memberNo}`, m.memberId)
    .run();
  return m;
}
/** Both take direct messages from anyone, so nothing waits as a request. */
async function pair() {
  const [a, b] = [await dressed(), await dressed()];
  for (const m of [a, b]) expectOk(await call("PUT", "/private/sns/chat-settings", { as: m, body: { acceptFrom: "everyone" } }));
  return [a, b] as const;
}
async function load(path: string, who: Member | null | { cookie: Member }) {
  const headers: Record<string, string> = !who ? {} : "cookie" in who ? { Cookie: `velvet_session=${who.cookie.memberId}.${who.cookie.token}` } : who.headers;
  const response = await fetchWorker(path, { headers });
  await response.arrayBuffer();
  return { status: response.status, cacheControl: response.headers.get("Cache-Control") };
}
const messagesOf = async (m: Member) => (await env.DB.prepare("select count(*) as n from chat_messages where member_id = ?").bind(m.memberId).first<{ n: number }>())!.n;

describe("private message images", () => {
  it("are uploaded as private: a /private-media address, never served by /media", async () => {
    const a = await dressed();
    const src = await privateImage(a);
    expect(src).toMatch(new RegExp(`^/private-media/SMP/${a.memberNo}/dm/[A-Za-z0-9]{24}\\.jpg$`));
    const key = src.slice("/private-media/".length);
    expect(await env.MEDIA.head(key)).not.toBeNull();
    expect(await load(`/media/${key}`, a)).toMatchObject({ status: 404 });
    expect(await load(`/media/${key}`, null)).toMatchObject({ status: 404 });
    // Before it is sent, only its uploader can load it.
    expect(await load(src, a)).toEqual({ status: 200, cacheControl: "private, no-store" });
    expect(await load(src, await dressed())).toEqual({ status: 404, cacheControl: "private, no-store" });
    // Not an upload anyone may reuse as an avatar or a banner.
    expectFailure(await call("POST", `/private/core/banners/${a.memberId}`, { as: a, body: { image: src, pickable: true, width: 48, height: 48 } }), 400);
    // The same through /api/v3/storage.
    const form = new FormData();
    form.set("file", new File([pngBytes() as BlobPart], "p.png", { type: "image/png" }));
    form.set("type", "private");
    expect(expectOk(await call("POST", "/storage", { as: a, body: form, version: 3 as never })).url).toMatch(/^\/private-media\/SMP\/\d+\/dm\//);
  });

  it("in a one-to-one room: sender and recipient load it, on every request; no one else does", async () => {
    const [a, b] = await pair();
    const [c, foreign] = [await dressed(), await dressed("ABC")];
    const room = directChatroomId(a.memberNo, b.memberNo);
    const src = await privateImage(a);
    const sent = expectOk(await send(a, room, img(src)));
    expect(sent.payload.src).toBe(src);
    for (const who of [a, b, { cookie: b }]) expect(await load(src, who)).toEqual({ status: 200, cacheControl: "private, no-store" });
    for (const who of [c, foreign, null]) expect(await load(src, who)).toEqual({ status: 404, cacheControl: "private, no-store" });
    // Another tenant's path for the same file is not found either.
    expect(await load(src.replace("/SMP/", "/ABC/"), foreign)).toMatchObject({ status: 404 });
    // A third member reading the room's page sees nothing of it (the room is not theirs).
    expect(JSON.stringify((await call("GET", `/private/sns/chatroom/${room}/messages`, { as: c })).body)).not.toContain(src);

    // A block either way ends the recipient's access at once.
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(b.memberId, a.memberId, Date.now()).run();
    expect(await load(src, b)).toMatchObject({ status: 404 });
    expect(await load(src, a)).toMatchObject({ status: 200 });
  });

  it("as a private reply in a shared room: only the recipient besides the sender; others see the placeholder", async () => {
    const [a, b, c] = [await dressed(), await dressed(), await dressed()];
    const src = await privateImage(a);
    const sent = expectOk(await send(a, PUBLIC_CHATROOM_ID, { ...img(src), isPrivate: true, toMemberNo: b.memberNo }));
    expect(await load(src, b)).toMatchObject({ status: 200 });
    expect(await load(src, c)).toMatchObject({ status: 404 });
    const seenByC = expectOk(await call("GET", `/private/sns/chatroom/messages/${sent.idChatroomMessage}`, { as: c }));
    expect(seenByC.placeholder).toBe(true);
    expect(JSON.stringify(seenByC)).not.toContain(src);
  });

  it("are gone with their message: the recipient is refused and the file deleted", async () => {
    const [a, b] = await pair();
    const room = directChatroomId(a.memberNo, b.memberNo);
    const src = await privateImage(a);
    const sent = expectOk(await send(a, room, img(src)));
    expect(await load(src, b)).toMatchObject({ status: 200 });
    expectOk(await call("DELETE", `/private/sns/chatroom/messages/${a.memberId}/${sent.idChatroomMessage}`, { as: a }));
    expect(await load(src, b)).toMatchObject({ status: 404 });
    expect(await env.MEDIA.head(src.slice("/private-media/".length))).toBeNull();
  });

  it("bad input: a public image in a private message, a private image in public, someone else's or a spent upload — 400, nothing stored", async () => {
    const [a, b] = await pair();
    const c = await dressed();
    const room = directChatroomId(a.memberNo, b.memberNo);
    const mine = await privateImage(a);
    const theirs = await privateImage(c);
    const before = await messagesOf(a);

    expectFailure(await send(a, room, img(`/media/SMP/${a.memberNo}/photo/x.jpg`)), 400, "400706");
    expectFailure(await send(a, PUBLIC_CHATROOM_ID, { ...img(`/media/SMP/${a.memberNo}/photo/x.jpg`), isPrivate: true, toMemberNo: b.memberNo }), 400, "400706");
    expectFailure(await send(a, PUBLIC_CHATROOM_ID, img(mine)), 400, "400707");
    expectFailure(await send(a, PUBLIC_CHATROOM_ID, { ...img(mine), toMemberNo: b.memberNo }), 400, "400707");
    expectFailure(await send(a, room, img(theirs)), 400, "400708");
    expectFailure(await send(a, room, img(`/private-media/SMP/${a.memberNo}/dm/${"x".repeat(24)}.jpg`)), 400, "400708");
    expectFailure(await send(a, room, img(`/private-media/SMP/${a.memberNo}/keyed/${"x".repeat(24)}.png`)), 400);
    expect(await messagesOf(a)).toBe(before);
    expect(await load(mine, b)).toMatchObject({ status: 404 });

    // Sent once; the same request again answers the stored message; another message cannot carry it again.
    const requestId = rid();
    const first = expectOk(await send(a, room, { ...img(mine), requestId }));
    expect(expectOk(await send(a, room, { ...img(mine), requestId })).idChatroomMessage).toBe(first.idChatroomMessage);
    const d = await dressed();
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: d, body: { acceptFrom: "everyone" } }));
    expectFailure(await send(a, directChatroomId(a.memberNo, d.memberNo), img(mine)), 400, "400708");
    expect(await load(mine, d)).toMatchObject({ status: 404 });
    expect(await messagesOf(a)).toBe(before + 1);
  });
});
