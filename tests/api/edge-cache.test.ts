import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import { call, expectOk, fetchWorker, signUp, type Member } from "../support/client";

// README Decisions "D1 read replicas through sessions" (edge part), SECURITY.md "Edge cache": public renditions are
// kept in the edge cache (caches.default, keyed by the media key) and purged when the member deletes the item or
// the account; /private-media is never stored there.

const edge = () => (caches as unknown as { default: Cache }).default;
const cacheKey = (key: string) => new Request(`https://media-cache.velvet.invalid/${encodeURI(key)}`);
const inEdgeCache = async (key: string) => Boolean(await edge().match(cacheKey(key)));

function png() {
  const W = 40, H = 30;
  const pixels = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) pixels.set([40 + x * 4, 60 + y * 5, 120 + ((x + y) % 30), 255], (y * W + x) * 4);
  const image = new PhotonImage(pixels, W, H);
  const bytes = image.get_bytes();
  image.free();
  return bytes;
}
async function upload(as: Member, idAlbum: number) {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(png())], "p.png", { type: "image/png" }));
  return expectOk(await call("POST", `/private/sns/albums/${idAlbum}/files`, { as, body: form }));
}
async function publicPhoto(as: Member) {
  const album = expectOk(await call("POST", "/private/sns/albums", { as, body: { title: "Edge", secretKey: "" } }));
  const file = await upload(as, album.idAlbum);
  const photo = expectOk(await call("POST", "/private/sns/photos", { as, body: { idAlbum: album.idAlbum, filePath: file.filePath } }));
  return { album, photo, key: (photo.filePath as string).slice("/media/".length) };
}
/** Loads a /media address and waits for the edge copy to be put (keepMedia runs in waitUntil). */
async function load(url: string) {
  const res = await fetchWorker(url);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes };
}
async function untilCached(key: string) {
  for (let i = 0; i < 200 && !(await inEdgeCache(key)); i++) await scheduler.wait(0);
  return inEdgeCache(key);
}

describe("public media at the edge", () => {
  it("serves a public photo from the edge cache after the first load, and never again once deleted", async () => {
    const a = await signUp();
    const { photo, key } = await publicPhoto(a);
    const first = await load(photo.filePath);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(await untilCached(key)).toBe(true);
    const second = await load(photo.filePath);
    expect(second.res.headers.get("X-Edge-Cache")).toBe("hit");
    expect(second.res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(second.res.headers.get("Content-Type")).toBe(first.res.headers.get("Content-Type"));
    expect(second.bytes).toEqual(first.bytes);

    expectOk(await call("DELETE", `/private/sns/photos/${photo.idPhoto}`, { as: a }));
    expect(await inEdgeCache(key)).toBe(false);
    const after = await load(photo.filePath);
    expect(after.res.status).toBe(404);
    expect(after.res.headers.get("X-Edge-Cache")).toBeNull();
  });

  it("purges the account's public media when the account is deleted", async () => {
    const a = await signUp();
    const { photo, key } = await publicPhoto(a);
    await load(photo.filePath);
    expect(await untilCached(key)).toBe(true);
    expect(expectOk(await call("DELETE", `/private/core/members/${a.memberId}`, { as: a, body: { password: a.password } })).deleted).toBe(true);
    expect(await inEdgeCache(key)).toBe(false);
    expect((await load(photo.filePath)).res.status).toBe(404);
  });
});

describe("private media never reaches the edge cache", () => {
  it("answers /private-media with no-store and puts nothing in the cache, for the owner and for anyone else", async () => {
    const a = await signUp();
    const other = await signUp();
    const album = expectOk(await call("POST", "/private/sns/albums", { as: a, body: { title: "Keyed", secretKey: "s3cret-key" } }));
    const file = await upload(a, album.idAlbum);
    const url = file.filePath as string;
    expect(url).toMatch(/^\/private-media\//);
    const key = url.slice("/private-media/".length);
    const own = await fetchWorker(url, { headers: a.headers });
    await own.arrayBuffer();
    expect(own.status).toBe(200);
    expect(own.headers.get("Cache-Control")).toBe("private, no-store");
    const refused = await fetchWorker(url, { headers: other.headers });
    await refused.arrayBuffer();
    expect(refused.status).toBe(404);
    expect(refused.headers.get("Cache-Control")).toBe("private, no-store");
    // Neither under its key nor as its address: the edge cache never holds it.
    for (let i = 0; i < 20; i++) await scheduler.wait(0);
    expect(await inEdgeCache(key)).toBe(false);
    expect(await edge().match(new Request(`http://velvet.test${url}`))).toBeUndefined();
    // The public door refuses a private key outright (no R2 read, nothing to cache).
    expect((await fetchWorker(`/media/${key}`)).status).toBe(404);
    expect(await inEdgeCache(key)).toBe(false);
  });
});
