import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import { ALBUM_KEY_BUDGET, albumUnlockCookie } from "../../worker/contract/albums.constants";
import { newScrambleSeed, openLegacySeed, openSeed, sealSeed } from "../../worker/features/albums/album-seal";
import { hashPassword, randomString } from "../../worker/lib/crypto";
import { scramblePixels, seedFromHex, seedToHex, unscramblePixels } from "../../worker/contract/scramble";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member, type Reply } from "../support/client";
import { socketHeaders } from "../support/socket";

/**
 * Keyed albums (README Decisions "Keyed albums", "Private media"): the seed is random and sealed under SEAL_SECRET;
 * keys are proven in a body against a per-album budget; files only through /private-media, re-checked every time.
 */
const W = 40, H = 30;
function sourcePixels() {
  const pixels = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) pixels.set([30 + x * 5, 50 + y * 6, 90 + ((x * y) % 100), 255], (y * W + x) * 4);
  return pixels;
}
function png(pixels: Uint8Array = sourcePixels()) {
  const image = new PhotonImage(pixels, W, H);
  const bytes = image.get_bytes();
  image.free();
  return bytes;
}
function pixelsOf(bytes: Uint8Array) {
  const image = PhotonImage.new_from_byteslice(bytes);
  const pixels = image.get_raw_pixels();
  image.free();
  return pixels;
}
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

const KEY = "velvet rope 42";

async function keyedAlbum(owner: Member, secretKey = KEY, title = "Keyed") {
  return expectOk(await call("POST", "/private/sns/albums", { as: owner, body: { title, secretKey } }));
}
async function addPhoto(owner: Member, idAlbum: number) {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(png())], "p.png", { type: "image/png" }));
  const file = expectOk(await call("POST", `/private/sns/albums/${idAlbum}/files`, { as: owner, body: form }));
  return expectOk(await call("POST", "/private/sns/photos", { as: owner, body: { idAlbum, filePath: file.filePath } }));
}
/** A visitor's or member's key attempt, from its own address (the per-viewer limit is per address for visitors). */
function unlock(idAlbum: number, secretKey: string, as: Member | null = null, address = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) {
  return as
    ? call("POST", `/private/sns/albums/${idAlbum}/unlock`, { as, body: { secretKey } })
    : call("POST", `/public/sns/albums/SMP/${idAlbum}/unlock`, { body: { secretKey }, headers: { "CF-Connecting-IP": address } });
}
function unlockCookie(reply: Reply, idAlbum: number) {
  const header = reply.headers.getSetCookie().find((c) => c.startsWith(`${albumUnlockCookie(idAlbum)}=`));
  return header ? header.split(";")[0]! : null;
}
async function getFile(path: string, headers: Record<string, string> = {}) {
  const response = await fetchWorker(path, { headers });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, cacheControl: response.headers.get("Cache-Control"), bytes };
}
const attemptsOf = async (idAlbum: number) =>
  (await env.DB.prepare("select attempts from album_key_attempts where id_album = ?").bind(idAlbum).first<{ attempts: number }>())?.attempts ?? 0;
const albumCount = async (m: Member) => (await env.DB.prepare("select count(*) as n from albums where member_id = ?").bind(m.memberId).first<{ n: number }>())!.n;

describe("the scramble seed", () => {
  it("is random per album: two albums with the same key get different seeds, neither derived from the key", async () => {
    const a = await signUp();
    const first = await keyedAlbum(a);
    const second = await keyedAlbum(a);
    expect(first.scrambleSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(second.scrambleSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(first.scrambleSeed).not.toBe(second.scrambleSeed);
    // The old derivation (SHA-256 of a prefix and the key) gives neither.
    const derived = seedToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`velvet-album-scramble:${KEY}`))));
    expect([first.scrambleSeed, second.scrambleSeed]).not.toContain(derived);
  });

  it("is sealed at rest under SEAL_SECRET, not under JWT_SECRET", async () => {
    const a = await signUp();
    const album = await keyedAlbum(a);
    const row = await env.DB.prepare("select key_hash, seed_sealed from albums where id_album = ?").bind(album.idAlbum).first<{ key_hash: string; seed_sealed: string }>();
    expect(row!.seed_sealed).toMatch(/^s2\.[0-9a-f]{24}\.[0-9a-f]+$/);
    expect(row!.seed_sealed).not.toContain(album.scrambleSeed);
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(seedToHex(await openSeed(env.SEAL_SECRET, row!.seed_sealed))).toBe(album.scrambleSeed);
    expect(env.SEAL_SECRET).not.toBe(env.JWT_SECRET);
    // A key derived from JWT_SECRET opens nothing, and what JWT_SECRET seals is not what the album holds.
    await expect(openSeed(env.JWT_SECRET, row!.seed_sealed)).rejects.toThrow();
    await expect(openLegacySeed(env.JWT_SECRET, row!.seed_sealed.slice(3))).rejects.toThrow();
    const underJwt = await sealSeed(env.JWT_SECRET, seedFromHex(album.scrambleSeed));
    await expect(openSeed(env.SEAL_SECRET, underJwt)).rejects.toThrow();
    // Without the secret nothing is sealed or opened (no empty-key fallback).
    await expect(sealSeed("", newScrambleSeed())).rejects.toThrow(/SEAL_SECRET/);
    await expect(openSeed("", row!.seed_sealed)).rejects.toThrow(/SEAL_SECRET/);
  });

  it("reaches a key holder only after the server checked the key, and a grantee only while granted", async () => {
    const [a, b, c] = [await signUp(), await signUp(), await signUp()];
    const album = await keyedAlbum(a);
    await addPhoto(a, album.idAlbum);
    const stub = expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: b }));
    expect(stub).not.toHaveProperty("scrambleSeed");
    expect(stub).not.toHaveProperty("photos");
    expect(JSON.stringify(expectFailure(await unlock(album.idAlbum, "not the key", b), 403, "403804"))).not.toContain(album.scrambleSeed);
    expect(expectOk(await unlock(album.idAlbum, KEY, b)).scrambleSeed).toBe(album.scrambleSeed);
    expectOk(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: a, body: { memberNo: c.memberNo } }));
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: c })).scrambleSeed).toBe(album.scrambleSeed);
    expectOk(await call("DELETE", `/private/sns/albums/${album.idAlbum}/grants/${c.memberNo}`, { as: a }));
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: c }))).not.toHaveProperty("scrambleSeed");
  });
});

describe("secret keys", () => {
  it("have a minimum length: shorter keys are refused with a clear message and nothing is created", async () => {
    const a = await signUp();
    for (const secretKey of ["k", "seven77", "🔑🔑🔑🔑🔑🔑🔑"]) {
      const refused = expectFailure(await call("POST", "/private/sns/albums", { as: a, body: { title: "Short", secretKey } }), 400, "400803");
      expect(refused.returnMessage).toBe("The secret key must be at least 8 characters");
    }
    expect(await albumCount(a)).toBe(0);
    expect(expectOk(await call("POST", "/private/sns/albums", { as: a, body: { title: "Eight", secretKey: "eight888" } })).locked).toBe(true);
    expect(expectOk(await call("POST", "/private/sns/albums", { as: a, body: { title: "Kanji", secretKey: "秘密の鍵を八文字" } })).locked).toBe(true);
    expect(expectOk(await call("POST", "/private/sns/albums", { as: a, body: { title: "Open", secretKey: "" } })).locked).toBe(false);
    expect(await albumCount(a)).toBe(3);
  });

  it("never travel in an address: ?secretKey= is refused on every album read", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const album = await keyedAlbum(a);
    expectFailure(await call("GET", `/private/sns/albums/${album.idAlbum}?secretKey=${encodeURIComponent(KEY)}`, { as: b }), 400, "400804");
    expectFailure(await call("GET", `/public/sns/albums/SMP/${album.idAlbum}?secretKey=${encodeURIComponent(KEY)}`), 400, "400804");
    expect(await attemptsOf(album.idAlbum)).toBe(0);
    // The body carries it; the answer never echoes it, nor does the unlock cookie.
    const opened = await unlock(album.idAlbum, KEY, b);
    expect(JSON.stringify(expectOk(opened))).not.toContain(KEY);
    expect(unlockCookie(opened, album.idAlbum)).not.toContain(encodeURIComponent(KEY));
    expectFailure(await unlock(album.idAlbum, "", b), 400);
  });

  it("have a per-album budget across everyone: parallel wrong guesses never pass it; a right key costs nothing", async () => {
    const a = await signUp();
    const album = await keyedAlbum(a);
    // 30 visitors from 30 addresses (each under its own per-viewer limit) guess at once.
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => unlock(album.idAlbum, `wrong guess ${i}`, null, `10.9.0.${i + 1}`)));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(ALBUM_KEY_BUDGET);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - ALBUM_KEY_BUDGET);
    for (const reply of replies.filter((r) => r.status === 429)) expectFailure(reply, 429, "429801");
    expect(await attemptsOf(album.idAlbum)).toBe(ALBUM_KEY_BUDGET);
    // Spent: even the right key waits (guessing cannot go on), members included; the owner needs no key.
    expectFailure(await unlock(album.idAlbum, KEY, null, "10.9.1.1"), 429, "429801");
    expectFailure(await unlock(album.idAlbum, KEY, await signUp()), 429, "429801");
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: a })).access).toBe("owner");
    // An hour later the budget is whole again.
    await env.DB.prepare("update album_key_attempts set window_start = window_start - 3600001 where id_album = ?").bind(album.idAlbum).run();
    expect(expectOk(await unlock(album.idAlbum, KEY, null, "10.9.1.2")).access).toBe("key");
    expect(await attemptsOf(album.idAlbum)).toBe(0);

    // A right key gives its reservation back: more right keys than the budget, one after another, all get in.
    // (Checks in flight hold a reservation, so more than the budget of them at the very same moment may wait.)
    const other = await keyedAlbum(a);
    for (let i = 0; i < ALBUM_KEY_BUDGET + 3; i++) expect(expectOk(await unlock(other.idAlbum, KEY, null, `10.9.2.${i + 1}`)).access).toBe("key");
    expect(await attemptsOf(other.idAlbum)).toBe(0);
  });
});

describe("keyed album files", () => {
  it("are served only through /private-media, to owner, grantee and holders of a live unlock, never cached", async () => {
    const [owner, grantee, other, blocker] = [await signUp(), await signUp(), await signUp(), await signUp()];
    const foreign = await signUp("ABC");
    const album = await keyedAlbum(owner);
    const photo = await addPhoto(owner, album.idAlbum);
    expect(photo.filePath).toMatch(new RegExp(`^/private-media/SMP/${owner.memberNo}/keyed/[A-Za-z0-9]{24}\\.png$`));
    const publicUrl = photo.filePath.replace("/private-media/", "/media/");
    for (const m of [grantee, blocker]) expectOk(await call("POST", `/private/sns/albums/${album.idAlbum}/grants`, { as: owner, body: { memberNo: m.memberNo } }));

    const ownerFile = await getFile(photo.filePath, owner.headers);
    expect(ownerFile.status).toBe(200);
    expect(ownerFile.cacheControl).toBe("private, no-store");
    // The stored file is scrambled; the owner's seed restores it exactly.
    expect(same(pixelsOf(ownerFile.bytes), sourcePixels())).toBe(false);
    expect(same(unscramblePixels(pixelsOf(ownerFile.bytes), W, H, seedFromHex(album.scrambleSeed)), sourcePixels())).toBe(true);
    // The session cookie works as well as the headers (an <img> sends only cookies).
    expect((await getFile(photo.filePath, { Cookie: `velvet_session=${owner.memberId}.${owner.token}` })).status).toBe(200);

    const granted = await getFile(photo.filePath, grantee.headers);
    expect([granted.status, granted.cacheControl]).toEqual([200, "private, no-store"]);

    // Nobody else: another member, another tenant, a visitor — the same 404, never cacheable.
    for (const [who, headers] of [["other member", other.headers], ["other tenant", foreign.headers], ["visitor", {}], ["forged session", { "X-Access-Token": "f".repeat(32), "X-Member-ID": owner.memberId }]] as const) {
      const refused = await getFile(photo.filePath, headers);
      expect([who, refused.status, refused.cacheControl]).toEqual([who, 404, "private, no-store"]);
    }
    // The public route refuses the key outright, for everyone, the owner included.
    for (const headers of [{}, owner.headers]) expect((await getFile(publicUrl, headers)).status).toBe(404);

    // Revoked: the very next request is refused, the copied link included.
    expectOk(await call("DELETE", `/private/sns/albums/${album.idAlbum}/grants/${grantee.memberNo}`, { as: owner }));
    expect((await getFile(photo.filePath, grantee.headers)).status).toBe(404);
    // A grantee who blocks the owner (or is blocked) is not found either.
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(blocker.memberId, owner.memberId, Date.now()).run();
    expect((await getFile(photo.filePath, blocker.headers)).status).toBe(404);
    expectFailure(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: blocker }), 404);
  });

  it("open for a key holder through an HttpOnly unlock bound to the member (or, for visitors, the browser), outdated by re-keying", async () => {
    const [owner, holder, other] = [await signUp(), await signUp(), await signUp()];
    const album = await keyedAlbum(owner);
    const photo = await addPhoto(owner, album.idAlbum);

    const memberReply = await unlock(album.idAlbum, KEY, holder);
    const setCookie = memberReply.headers.getSetCookie().find((c) => c.startsWith(`${albumUnlockCookie(album.idAlbum)}=`))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=1800/);
    const memberCookie = unlockCookie(memberReply, album.idAlbum)!;

    const withCookie = (m: Member | null, cookie: string) => ({ ...(m?.headers ?? {}), Cookie: cookie });
    expect((await getFile(photo.filePath, withCookie(holder, memberCookie))).status).toBe(200);
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: holder, headers: { Cookie: memberCookie } })).access).toBe("key");
    // Bound to the member: the same cookie with another session, or none, opens nothing.
    expect((await getFile(photo.filePath, withCookie(other, memberCookie))).status).toBe(404);
    expect((await getFile(photo.filePath, withCookie(null, memberCookie))).status).toBe(404);
    expect(expectOk(await call("GET", `/private/sns/albums/${album.idAlbum}`, { as: other, headers: { Cookie: memberCookie } }))).not.toHaveProperty("photos");
    // Without the cookie the key holder is a stranger again.
    expect((await getFile(photo.filePath, holder.headers)).status).toBe(404);

    const visitorReply = await unlock(album.idAlbum, KEY);
    const visitorCookie = unlockCookie(visitorReply, album.idAlbum)!;
    expect((await getFile(photo.filePath, { Cookie: visitorCookie })).status).toBe(200);
    expect(expectOk(await call("GET", `/public/sns/albums/SMP/${album.idAlbum}`, { headers: { Cookie: visitorCookie } })).scrambleSeed).toBe(album.scrambleSeed);

    // Forged, expired or for another album: nothing.
    const [expires, mac] = visitorCookie.split("=")[1]!.split(".");
    const forgeries = [
      `${albumUnlockCookie(album.idAlbum)}=${expires}.${"0".repeat(64)}`,
      `${albumUnlockCookie(album.idAlbum)}=${Number(expires) + 1000}.${mac}`,
      `${albumUnlockCookie(album.idAlbum)}=${Date.now() - 1}.${mac}`,
      `${albumUnlockCookie(album.idAlbum + 1)}=${expires}.${mac}`,
    ];
    for (const cookie of forgeries) expect((await getFile(photo.filePath, { Cookie: cookie })).status, cookie).toBe(404);

    // The album re-keyed (a new key hash): every unlock is outdated at once.
    await env.DB.prepare("update albums set key_hash = ? where id_album = ?").bind(await hashPassword("another key!"), album.idAlbum).run();
    expect((await getFile(photo.filePath, { Cookie: visitorCookie })).status).toBe(404);
    expect((await getFile(photo.filePath, withCookie(holder, memberCookie))).status).toBe(404);
    expect((await getFile(photo.filePath, owner.headers)).status).toBe(200);
  });

  it("of another tenant, an unknown key or a malformed path are 404", async () => {
    const owner = await signUp("ABC");
    const album = await keyedAlbum(owner);
    const photo = await addPhoto(owner, album.idAlbum);
    expect((await getFile(photo.filePath.replace("/ABC/", "/SMP/"), owner.headers)).status).toBe(404);
    for (const path of ["/private-media/ABC/1/keyed/nothere.png", "/private-media/ABC/1/photo/x.jpg", "/private-media/%E0%A4%A", "/private-media/"]) {
      const reply = await getFile(path, owner.headers);
      expect([path, reply.status, reply.cacheControl]).toEqual([path, 404, "private, no-store"]);
    }
  });
});

describe("albums sealed before SEAL_SECRET", () => {
  it("are refused by /media at once, and re-keyed with a random seed onto /private-media on first use", async () => {
    const owner = await signUp();
    // As the old code stored it: a key-derived seed sealed under JWT_SECRET, the file public under the `album` kind.
    const legacySeed = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`velvet-album-scramble:${KEY}`)));
    const legacySealed = await sealLegacy(env.JWT_SECRET, legacySeed);
    const key = `SMP/${owner.memberNo}/album/${randomString(24)}.png`;
    await env.MEDIA.put(key, png(scramblePixels(sourcePixels(), W, H, legacySeed)));
    const inserted = await env.DB.prepare("insert into albums (project_code, member_id, title, key_hash, seed_sealed, created_at) values ('SMP', ?, 'Old', ?, ?, ?) returning id_album")
      .bind(owner.memberId, await hashPassword(KEY), legacySealed, Date.now())
      .first<{ id_album: number }>();
    const idAlbum = inserted!.id_album;
    await env.DB.batch([
      env.DB.prepare("insert into album_uploads (media_key, id_album, project_code, member_id, scrambled, created_at) values (?, ?, 'SMP', ?, 1, ?)").bind(key, idAlbum, owner.memberId, Date.now()),
      env.DB.prepare("insert into album_photos (id_album, project_code, member_id, file_path, media_key, description, created_at) values (?, 'SMP', ?, ?, ?, '', ?)").bind(idAlbum, owner.memberId, `/media/${key}`, key, Date.now()),
    ]);
    expect((await getFile(`/media/${key}`)).status).toBe(404);

    const album = expectOk(await call("GET", `/private/sns/albums/${idAlbum}`, { as: owner }));
    expect(album.scrambleSeed).not.toBe(seedToHex(legacySeed));
    const [photo] = album.photos;
    expect(photo.filePath).toMatch(new RegExp(`^/private-media/SMP/${owner.memberNo}/keyed/\\w{24}\\.png$`));
    const file = await getFile(photo.filePath, owner.headers);
    expect(file.status).toBe(200);
    expect(same(unscramblePixels(pixelsOf(file.bytes), W, H, seedFromHex(album.scrambleSeed)), sourcePixels())).toBe(true);
    expect(await env.MEDIA.head(key)).toBeNull();
    const row = await env.DB.prepare("select seed_sealed from albums where id_album = ?").bind(idAlbum).first<{ seed_sealed: string }>();
    expect(row!.seed_sealed.startsWith("s2.")).toBe(true);
    // The key still opens it, through the server.
    expect(expectOk(await unlock(idAlbum, KEY)).scrambleSeed).toBe(album.scrambleSeed);
  });
});

describe("no secret in any address", () => {
  it("socket tickets ride in Sec-WebSocket-Protocol; a ticket in the query opens nothing", async () => {
    const m = await signUp();
    const ticket = expectOk(await call("POST", "/private/core/sessions/ticket", { as: m, body: { audience: "socket" } })).ticket;
    const inQuery = await fetchWorker(`/parties/member-inbox/SMP~${m.memberId}?ticket=${ticket}`, { headers: { Upgrade: "websocket" } });
    expect(inQuery.status).toBe(401);
    await inQuery.arrayBuffer();
    const inHeader = await fetchWorker(`/parties/member-inbox/SMP~${m.memberId}`, { headers: socketHeaders(ticket) });
    expect(inHeader.status).toBe(101);
    expect(inHeader.headers.get("Sec-WebSocket-Protocol")).toBe("velvet.v1");
    inHeader.webSocket!.accept();
    inHeader.webSocket!.close();
  });

  it("the browser code builds no address with a secret key or a ticket", () => {
    const sources = import.meta.glob<string>("../../app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    for (const [path, source] of Object.entries(sources)) {
      expect(source, path).not.toMatch(/[?&]secretKey=/);
      expect(source, path).not.toMatch(/[?&]ticket=|\{\s*ticket[,\s}]/);
    }
  });
});

/** The sealing the old code used (HKDF salt "velvet-album-seed" over JWT_SECRET), to plant a legacy album. */
async function sealLegacy(secret: string, seed: Uint8Array) {
  const encoder = new TextEncoder();
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("velvet-album-seed"), info: encoder.encode("aes-256-gcm") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt"],
  );
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, seed as Uint8Array<ArrayBuffer>);
  const hex = (b: ArrayBuffer | Uint8Array) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex(iv)}.${hex(sealed)}`;
}
