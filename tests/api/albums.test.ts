import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import { seedFromHex, unscramblePixels } from "../../worker/contract/scramble";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { freshWindowIfEnding } from "../support/rate-window";

const W = 48, H = 36;
function sourcePixels() {
  const pixels = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) pixels.set([40 + x * 4, 60 + y * 5, 120 + ((x + y) % 30), 255], (y * W + x) * 4);
  return pixels;
}
function png(pixels = sourcePixels()) {
  const image = new PhotonImage(pixels, W, H);
  const bytes = image.get_bytes();
  image.free();
  return bytes;
}
async function decode(url: string, as?: Member) {
  const response = await fetchWorker(url, { headers: as?.headers ?? {} });
  expect(response.status).toBe(200);
  const image = PhotonImage.new_from_byteslice(new Uint8Array(await response.arrayBuffer()));
  const pixels = image.get_raw_pixels();
  const size = [image.get_width(), image.get_height()];
  image.free();
  return { pixels, size };
}
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

const unlock = (as: Member | null, idAlbum: number, secretKey: string) =>
  as ? call("POST", `/private/sns/albums/${idAlbum}/unlock`, { as, body: { secretKey } }) : call("POST", `/public/sns/albums/SMP/${idAlbum}/unlock`, { body: { secretKey } });

async function createAlbum(as: Member, title: string, secretKey = "") {
  return expectOk(await call("POST", "/private/sns/albums", { as, body: { title, secretKey } }));
}
async function upload(as: Member, idAlbum: number) {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(png())], "p.png", { type: "image/png" }));
  return call("POST", `/private/sns/albums/${idAlbum}/files`, { as, body: form });
}
async function addPhoto(as: Member, idAlbum: number) {
  const file = expectOk(await upload(as, idAlbum));
  return expectOk(await call("POST", "/private/sns/photos", { as, body: { idAlbum, filePath: file.filePath } }));
}

describe("open albums", () => {
  it("creates, lists, shows photos to members and visitors, deletes", async () => {
    const a = await signUp();
    const b = await signUp();
    const album = await createAlbum(a, "Summer");
    expect(album).toMatchObject({ title: "Summer", locked: false, secretKey: null, access: "owner", photos: [] });
    const photo = await addPhoto(a, album.idAlbum);
    expect(photo).toMatchObject({ idAlbum: album.idAlbum, description: "" });
    expect(photo.filePath).toMatch(new RegExp(`^/media/SMP/${a.memberNo}/album/\\w+\\.jpg$`));

    const seenByB = expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }));
    expect(seenByB).toMatchObject({ access: "open", scrambled: false, photos: [photo] });
    const visitor = expectOk(await call("GET", `/public/sns/albums/smp/${album.idAlbum}`));
    expect(visitor.photos).toHaveLength(1);
    const list = expectOk(await call("GET", `/private/sns/member-albums/${a.memberNo}`, { as: b }));
    expect(list).toEqual([expect.objectContaining({ idAlbum: album.idAlbum, title: "Summer", locked: false, photoCount: 1 })]);
    expect(expectOk(await call("GET", `/public/sns/member-albums/SMP/${a.memberNo}`))[0].photoCount).toBe(1);

    expectFailure(await call("DELETE", `/private/sns/photos/${photo.idPhoto}`, { as: b }), 403, "403805");
    expectFailure(await call("DELETE", `/private/sns/albums/${album.idAlbum}`, { as: b }), 403, "403805");
    expectOk(await call("DELETE", `/private/sns/photos/${photo.idPhoto}`, { as: a }));
    expect(await env.MEDIA.head(photo.filePath.slice(7))).toBeNull();
    expectOk(await call("DELETE", `/private/sns/albums/${album.idAlbum}`, { as: a }));
    expectFailure(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }), 404);
    expect(expectOk(await call("GET", `/private/sns/member-albums/${a.memberNo}`, { as: a }))).toEqual([]);
    expect(expectOk(await call("GET", "/private/sns/albums", { as: a }))).toEqual([]);
  });

  it("refuses anonymous writes, bad input and other tenants", async () => {
    const a = await signUp();
    const other = await signUp("ABC");
    const album = await createAlbum(a, "Mine");
    expectFailure(await call("POST", "/private/sns/albums", { body: { title: "x" } }), 401);
    expectFailure(await call("DELETE", `/private/sns/albums/${album.idAlbum}`), 401);
    expectFailure(await call("POST", "/private/sns/photos", { body: { idAlbum: album.idAlbum, filePath: "/media/x" } }), 401);
    const count = async () => (await env.DB.prepare("select count(*) as n from albums where member_id = ?").bind(a.memberId).first<{ n: number }>())!.n;
    expectFailure(await call("POST", "/private/sns/albums", { as: a, body: { title: "" } }), 400);
    expectFailure(await call("POST", "/private/sns/albums", { as: a, body: { title: "x".repeat(81) } }), 400);
    expectFailure(await call("POST", "/private/sns/albums", { as: a, body: { title: "ok", secretKey: 12 } }), 400);
    expectFailure(await call("GET", "/private/sns/albums/abc", { as: a }), 400);
    expectFailure(await call("GET", `/public/sns/albums/SMPP/${album.idAlbum}`), 400);
    expect(await count()).toBe(1);

    expectFailure(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: other }), 404);
    expectFailure(await call("GET", `/public/sns/albums/ABC/${album.idAlbum}`), 404);
    expectFailure(await call("DELETE", `/private/sns/albums/${album.idAlbum}`, { as: other }), 404);
    expectFailure(await upload(other, album.idAlbum), 404);
    expectFailure(await call("GET", `/private/sns/member-albums/${a.memberNo}`, { as: other }), 404);
    expect(await count()).toBe(1);
  });

  it("accepts only the member's own media as filePath", async () => {
    const a = await signUp();
    const b = await signUp();
    const open = await createAlbum(a, "Open");
    const bFile = expectOk(await upload(b, (await createAlbum(b, "B's")).idAlbum));
    for (const filePath of [bFile.filePath, "https://evil.example/x.jpg", `/media/SMP/${a.memberNo}/photo/nothere.jpg`, `/media/SMP/${a.memberNo}/../x.jpg`]) {
      expectFailure(await call("POST", "/private/sns/photos", { as: a, body: { idAlbum: open.idAlbum, filePath } }), 400, "400801");
    }
    // Someone else's album.
    const own = expectOk(await upload(a, open.idAlbum));
    const bAlbum = await createAlbum(b, "Not yours");
    expectFailure(await call("POST", "/private/sns/photos", { as: a, body: { idAlbum: bAlbum.idAlbum, filePath: own.filePath } }), 403, "403805");
    expectFailure(await upload(a, bAlbum.idAlbum), 403, "403805");
    // An existing own profile photo may go into an open album.
    const key = `SMP/${a.memberNo}/photo/ownphoto123.jpg`;
    await env.MEDIA.put(key, new Uint8Array([1, 2, 3]));
    expectOk(await call("POST", "/private/sns/photos", { as: a, body: { idAlbum: open.idAlbum, filePath: `/media/${key}` } }));
  });
});

describe("albums with a secret key", () => {
  it("stores the key hashed and the photos scrambled; the key unscrambles them exactly", async () => {
    const a = await signUp();
    const album = await createAlbum(a, "Private", "velvet rope");
    expect(album).toMatchObject({ locked: true, secretKey: null, access: "owner", scrambled: true });
    const row = await env.DB.prepare("select key_hash, seed_sealed from albums where id_album = ?").bind(album.idAlbum).first<Record<string, string>>();
    expect(row!.key_hash).toMatch(/^pbkdf2-sha256\$/);
    expect(JSON.stringify(row)).not.toContain("velvet rope");

    const file = expectOk(await upload(a, album.idAlbum));
    expect(file.scrambled).toBe(true);
    expect(file.filePath).toMatch(new RegExp(`^/private-media/SMP/${a.memberNo}/keyed/\\w+\\.png$`));
    const stored = await decode(file.filePath, a);
    expect(stored.size).toEqual([W, H]);
    expect(same(stored.pixels, sourcePixels())).toBe(false);
    // The owner gets the album's seed without typing the key; it restores the photo exactly.
    const seed = seedFromHex(album.scrambleSeed);
    expect(same(unscramblePixels(stored.pixels, W, H, seed), sourcePixels())).toBe(true);
    const other = await createAlbum(a, "Same key", "velvet rope");
    expect(same(unscramblePixels(stored.pixels, W, H, seedFromHex(other.scrambleSeed)), sourcePixels())).toBe(false);
  });

  it("reveals nothing without the right key, not even the photo count; the right key opens it", async () => {
    const a = await signUp();
    const b = await signUp();
    const album = await createAlbum(a, "Locked", "s3cret-key");
    await addPhoto(a, album.idAlbum);
    await addPhoto(a, album.idAlbum);

    const stub = expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }));
    expect(stub).toEqual({ idAlbum: album.idAlbum, title: "Locked", secretKey: null, locked: true, profile: expect.any(Object), timelog: expect.any(String) });
    const wrong = expectFailure(await unlock(b, album.idAlbum, "nope"), 403, "403804");
    expect(JSON.stringify(wrong)).not.toMatch(/photo|filePath|Locked/);
    const listed = expectOk(await call("GET", `/private/sns/member-albums/${a.memberNo}`, { as: b }))[0];
    expect(listed).not.toHaveProperty("photoCount");
    expect(expectOk(await call("GET", `/private/sns/member-albums/${a.memberNo}`, { as: a }))[0].photoCount).toBe(2);
    expect(expectOk(await call("GET", "/private/sns/albums", { as: a }))).toEqual([expect.objectContaining({ idAlbum: album.idAlbum, locked: true, photoCount: 2 })]);
    expectFailure(await call("GET", "/private/sns/albums"), 401);

    const opened = expectOk(await unlock(b, album.idAlbum, "s3cret-key"));
    expect(opened).toMatchObject({ access: "key", scrambled: true });
    expect(opened.photos).toHaveLength(2);
    // The key holder is checked now, so the server hands over the (random) seed.
    expect(opened.scrambleSeed).toMatch(/^[0-9a-f]{64}$/);
    const visitor = expectOk(await unlock(null, album.idAlbum, "s3cret-key"));
    expect(visitor.photos).toHaveLength(2);
    expect(expectOk(await call("GET", `/public/sns/albums/SMP/${album.idAlbum}`))).not.toHaveProperty("photos");
  });

  it("refuses unscrambled or foreign files in a keyed album", async () => {
    const a = await signUp();
    const keyed = await createAlbum(a, "Keyed", "keyed-key-1");
    const open = await createAlbum(a, "Open");
    const otherKeyed = await createAlbum(a, "Other keyed", "keyed-key-2");
    const openFile = expectOk(await upload(a, open.idAlbum));
    const otherFile = expectOk(await upload(a, otherKeyed.idAlbum));
    const key = `SMP/${a.memberNo}/photo/plain123.jpg`;
    await env.MEDIA.put(key, new Uint8Array([1]));
    for (const filePath of [openFile.filePath, otherFile.filePath, `/media/${key}`, otherFile.filePath.replace("/private-media/", "/media/")]) {
      expectFailure(await call("POST", "/private/sns/photos", { as: a, body: { idAlbum: keyed.idAlbum, filePath } }), 400, "400801");
    }
    expect((await env.DB.prepare("select count(*) as n from album_photos where id_album = ?").bind(keyed.idAlbum).first<{ n: number }>())!.n).toBe(0);
  });

  it("rate limits key attempts per viewer and album", async () => {
    const a = await signUp();
    const b = await signUp();
    const c = await signUp();
    const album = await createAlbum(a, "Guarded", "right-key");
    await freshWindowIfEnding(60);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await unlock(b, album.idAlbum, `wrong${i}`)).status);
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Even the right key is refused while limited: guessing cannot continue.
    expectFailure(await unlock(b, album.idAlbum, "right-key"), 429);
    // Another viewer is not affected.
    expect(expectOk(await unlock(c, album.idAlbum, "right-key")).access).toBe("key");
  });

  it("grants named members access without the key and revokes it at once", async () => {
    const a = await signUp();
    const b = await signUp();
    const c = await signUp();
    const other = await signUp("ABC");
    const album = await createAlbum(a, "For B", "only-me-please");
    await addPhoto(a, album.idAlbum);
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }))).not.toHaveProperty("photos");

    expectFailure(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: b, body: { memberNo: c.memberNo } }), 403, "403805");
    expectFailure(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { body: { memberNo: b.memberNo } }), 401);
    expectFailure(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: a, body: { memberNo: "abc" } }), 400);
    expectFailure(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: a, body: { memberNo: a.memberNo } }), 400, "400802");
    expectFailure(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: a, body: { memberNo: other.memberNo } }), 404);
    expectFailure(await call("GET", `/private/sns/albums/${album.idAlbum}/grants`, { as: other }), 404);
    const open = await createAlbum(a, "Open");
    expectFailure(await call("POST", `/private/sns/albums/${open.idAlbum}/grants`, { as: a, body: { memberNo: b.memberNo } }), 409, "409803");

    const grants = expectOk(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: a, body: { memberNo: b.memberNo } }));
    expect(grants.map((g: any) => g.profile.simpleCode)).toEqual([b.memberNo]);
    expectOk(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: a, body: { memberNo: b.memberNo } }));
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}/grants`, { as: a }))).toHaveLength(1);
    expectFailure(await call("GET", `/private/sns/albums/${album.idAlbum}/grants`, { as: b }), 403);

    const granted = expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }));
    expect(granted).toMatchObject({ access: "grant", scrambled: true });
    expect(granted.photos).toHaveLength(1);
    expect(granted.scrambleSeed).toBe(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: a })).scrambleSeed);
    expect(expectOk(await call("GET", `/private/sns/member-albums/${a.memberNo}`, { as: b })).find((x: any) => x.idAlbum === album.idAlbum).photoCount).toBe(1);
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: c }))).not.toHaveProperty("photos");

    expect(expectOk(await call("DELETE", `/private/sns/albums/${album.idAlbum}/grants/${b.memberNo}`, { as: a }))).toEqual([]);
    const revoked = expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }));
    expect(revoked).not.toHaveProperty("photos");
    expect(revoked).not.toHaveProperty("scrambleSeed");
  });

  it("hides albums between blocked members", async () => {
    const a = await signUp();
    const b = await signUp();
    const album = await createAlbum(a, "Open");
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(b.memberId, a.memberId, Date.now()).run();
    expectFailure(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }), 404);
    expectFailure(await call("GET", `/private/sns/member-albums/${a.memberNo}`, { as: b }), 404);
  });
});
