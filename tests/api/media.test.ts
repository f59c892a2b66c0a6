import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sniffImage } from "../../worker/features/images/image-sniff";
import { call, expectFailure, expectOk, fetchWorker, signUp } from "../support/client";
import { contains, form, giveAvatar, imageBytes, midTone, withExifGps } from "./profiles-helpers";

const stored = async (url: string) => new Uint8Array(await (await env.MEDIA.get(url.replace("/media/", "")))!.arrayBuffer());
const profileOf = async (member: { memberId: string; headers: Record<string, string> }) =>
  expectOk(await call("GET", `/private/core/profiles/${member.memberId}`, { as: member }));

describe("uploads: what works", () => {
  it("stores a real PNG photo at most 600 px, under a server key, served with long-lived caching", async () => {
    const m = await signUp();
    const info = expectOk(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form(imageBytes(900, 450, midTone), "photo", "../../evil name.png") }));
    expect(info).toMatchObject({ width: 600, height: 300, graphic: false });
    expect(info.key).toMatch(new RegExp(`^SMP/${m.memberNo}/photo/[A-Za-z0-9]{24}\\.jpg$`));
    expect(info.url).toBe(`/media/${info.key}`);
    const served = await fetchWorker(info.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("Cache-Control")).toContain("immutable");
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(sniffImage(new Uint8Array(await served.arrayBuffer()))).toEqual({ type: "jpeg", width: 600, height: 300 });
  });

  it("removes EXIF and GPS from a real JPEG", async () => {
    const m = await signUp();
    const original = withExifGps(imageBytes(400, 300, midTone, "jpeg"));
    expect(contains(original, "Exif")).toBe(true);
    expect(sniffImage(original)).toMatchObject({ type: "jpeg", width: 400, height: 300 });
    const info = expectOk(await call("POST", `/private/core/files/${m.memberId}`, { as: m, body: form(original, "photo", "holiday.jpg") }));
    const bytes = await stored(info.url);
    expect(sniffImage(bytes)?.type).toBe("jpeg");
    expect(contains(bytes, "Exif")).toBe(false);
    expect(contains(bytes, "MM\0*")).toBe(false);
  });

  it("stores a square avatar at 300x300, sets avator and qualify", async () => {
    const m = await signUp();
    const info = await giveAvatar(m);
    expect(info).toMatchObject({ width: 300, height: 300, graphic: false, qualify: true, unqualifiedCount: 0 });
    const profile = await profileOf(m);
    expect(profile).toMatchObject({ avator: info.url, qualify: true, unqualifiedCount: 0 });
    expect(sniffImage(await stored(info.url))).toMatchObject({ width: 300, height: 300 });
  });

  it("flags a mostly black image as graphic: avatar not qualified, unqualifiedCount + 1, photo not pickable", async () => {
    const m = await signUp();
    const dark = imageBytes(200, 200, (x) => (x < 120 ? [5, 5, 5] : [120, 120, 120]));
    const info = expectOk(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form(dark, "avatar") }));
    expect(info).toMatchObject({ graphic: true, qualify: false, unqualifiedCount: 1 });
    expect(await profileOf(m)).toMatchObject({ avator: info.url, qualify: false, unqualifiedCount: 1 });

    const photo = expectOk(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form(dark, "photo") }));
    expect(photo.graphic).toBe(true);
    const banner = expectOk(await call("POST", `/private/core/banners/${m.memberId}`, { as: m, body: { image: photo.url, pickable: true, width: 200, height: 200 } }));
    expect(banner).toMatchObject({ pickable: false, blur: true });
  });

  it("accepts the same upload at /api/v3/storage", async () => {
    const m = await signUp();
    const response = await fetchWorker("/api/v3/storage", { method: "POST", headers: m.headers, body: form(imageBytes(100, 80, midTone)) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { info: { width: number; key: string } };
    expect(body.info.width).toBe(100);
    expect(body.info.key).toContain(`/${m.memberNo}/photo/`);
    expect((await fetchWorker("/api/v3/storage", { method: "POST", body: form(imageBytes(10, 10, midTone)) })).status).toBe(401);
  });
});

describe("uploads: what is refused", () => {
  it("refuses a non-square avatar and keeps the old one", async () => {
    const m = await signUp();
    const first = await giveAvatar(m);
    const reply = await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form(imageBytes(400, 300, midTone), "avatar") });
    expectFailure(reply, 400, "400505");
    expect((await profileOf(m)).avator).toBe(first.url);
  });

  it("refuses a text file renamed to .png with 415", async () => {
    const m = await signUp();
    const reply = await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form("<html>hello</html>", "photo", "picture.png") });
    expectFailure(reply, 415, "415000");
    const listed = await env.DB.prepare("select count(*) as n from media_uploads where member_id = ?").bind(m.memberId).first<{ n: number }>();
    expect(listed?.n).toBe(0);
  });

  it("refuses an oversized upload with 413, a missing file and a bad type with 400", async () => {
    const m = await signUp();
    const big = new Uint8Array(9 * 1024 * 1024);
    big.set(imageBytes(10, 10, midTone));
    expectFailure(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form(big, "photo") }), 413);
    const empty = new FormData();
    empty.set("type", "photo");
    expectFailure(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: empty }), 400, "400504");
    expectFailure(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form(imageBytes(10, 10, midTone), "cover" as never) }), 400);
  });
});

describe("uploads: who may not", () => {
  it("anonymous 401, another member 403, another tenant 404", async () => {
    const m = await signUp();
    const other = await signUp();
    const abc = await signUp("ABC");
    const body = () => form(imageBytes(20, 20, midTone));
    expectFailure(await call("POST", `/private/core/files/SMP/${m.memberId}`, { body: body() }), 401);
    expectFailure(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: other, body: body() }), 403);
    expectFailure(await call("POST", `/private/core/files/${m.memberId}`, { as: other, body: body() }), 403);
    expectFailure(await call("POST", `/private/core/files/SMP/${abc.memberId}`, { as: abc, body: body() }), 404);
    const rows = await env.DB.prepare("select count(*) as n from media_uploads where member_id in (?, ?)").bind(m.memberId, abc.memberId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

async function photoOf(m: Awaited<ReturnType<typeof signUp>>, pickable = true) {
  const up = expectOk(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: form(imageBytes(300, 200, midTone)) }));
  return expectOk(await call("POST", `/private/core/banners/${m.memberId}`, { as: m, body: { image: up.url, pickable, width: 300, height: 200 } }));
}

describe("banners and photos", () => {
  it("creates from an own upload; lists by project, by user and for review; resizes; deletes", async () => {
    const owner = await signUp();
    await giveAvatar(owner);
    const viewer = await signUp();
    await giveAvatar(viewer);
    const banner = await photoOf(owner);
    expect(banner).toMatchObject({ pickable: true, width: 300, height: 200, memberNo: owner.memberNo, rating: 0, blur: false });

    const project = expectOk(await call("GET", "/public/core/banners/SMP?pageSize=200"));
    expect(project.find((b: { idBanner: number }) => b.idBanner === banner.idBanner)?.profile.simpleCode).toBe(owner.memberNo);
    const byUser = expectOk(await call("GET", `/public/core/banners/users/${owner.memberNo}?project=SMP`));
    expect(byUser.map((b: { idBanner: number }) => b.idBanner)).toEqual([banner.idBanner]);
    const review = expectOk(await call("GET", "/private/core/banners/review/SMP", { as: viewer }));
    expect(review.some((b: { idBanner: number }) => b.idBanner === banner.idBanner)).toBe(true);
    expect(review.length).toBeLessThanOrEqual(10);
    const ownReview = expectOk(await call("GET", "/private/core/banners/review/SMP", { as: owner }));
    expect(ownReview.some((b: { idBanner: number }) => b.idBanner === banner.idBanner)).toBe(false);

    expect(expectOk(await call("PATCH", `/private/core/banners/size/${banner.idBanner}`, { as: owner, body: { width: 640, height: 480 } }))).toMatchObject({ width: 640, height: 480 });
    expectOk(await call("DELETE", `/private/core/banners/${banner.idBanner}/${owner.memberId}`, { as: owner }));
    expect(expectOk(await call("GET", `/public/core/banners/users/${owner.memberNo}?project=SMP`))).toEqual([]);
  });

  it("deleting a photo deletes its file and its blurred rendition, unless another of the member's photos shows the same upload", async () => {
    const owner = await signUp();
    await giveAvatar(owner);
    const up = expectOk(await call("POST", `/private/core/files/SMP/${owner.memberId}`, { as: owner, body: form(imageBytes(300, 200, midTone)) }));
    const create = async () => expectOk(await call("POST", `/private/core/banners/${owner.memberId}`, { as: owner, body: { image: up.url, pickable: true, width: 300, height: 200 } }));
    const [first, second] = [await create(), await create()];
    const keys = [up.url, second.blurImage].filter(Boolean).map((url: string) => url.replace(/^\/media\//, ""));
    const present = async () => Promise.all(keys.map(async (key: string) => (await env.MEDIA.head(key)) !== null));

    expectOk(await call("DELETE", `/private/core/banners/${first.idBanner}/${owner.memberId}`, { as: owner }));
    expect(await present()).toEqual(keys.map(() => true));
    expect((await fetchWorker(up.url)).status).toBe(200);

    expectOk(await call("DELETE", `/private/core/banners/${second.idBanner}/${owner.memberId}`, { as: owner }));
    expect(await present()).toEqual(keys.map(() => false));
    expect((await fetchWorker(up.url)).status).toBe(404);
    // The upload is gone too, so it cannot be pointed at again.
    expectFailure(await call("POST", `/private/core/banners/${owner.memberId}`, { as: owner, body: { image: up.url, pickable: true, width: 300, height: 200 } }), 400, "400501");
  });

  it("refuses someone else's upload, bad input, and writes by others", async () => {
    const owner = await signUp();
    const other = await signUp();
    const up = expectOk(await call("POST", `/private/core/files/SMP/${owner.memberId}`, { as: owner, body: form(imageBytes(50, 50, midTone)) }));
    expectFailure(await call("POST", `/private/core/banners/${other.memberId}`, { as: other, body: { image: up.url, pickable: true, width: 50, height: 50 } }), 400, "400501");
    expectFailure(await call("POST", `/private/core/banners/${owner.memberId}`, { as: owner, body: { image: "https://elsewhere.example/x.jpg", width: 50, height: 50 } }), 400, "400501");
    expectFailure(await call("POST", `/private/core/banners/${owner.memberId}`, { as: owner, body: { image: up.url, width: 0, height: 50 } }), 400, "400000");
    expectFailure(await call("POST", `/private/core/banners/${owner.memberId}`, { as: other, body: { image: up.url, width: 50, height: 50 } }), 403);
    expectFailure(await call("POST", `/private/core/banners/${owner.memberId}`, { body: { image: up.url, width: 50, height: 50 } }), 401);

    const banner = await photoOf(owner);
    expectFailure(await call("PATCH", `/private/core/banners/size/${banner.idBanner}`, { as: other, body: { width: 1, height: 1 } }), 404, "404501");
    expectFailure(await call("PATCH", `/private/core/banners/size/${banner.idBanner}`, { as: owner, body: { width: -1, height: 1 } }), 400);
    expectFailure(await call("DELETE", `/private/core/banners/${banner.idBanner}/${other.memberId}`, { as: other }), 404);
    expectFailure(await call("DELETE", `/private/core/banners/${banner.idBanner}/${owner.memberId}`, { as: other }), 403);
    const abc = await signUp("ABC");
    expectFailure(await call("GET", "/private/core/banners/review/SMP", { as: abc }), 404);
    expectFailure(await call("GET", `/private/core/banners/users/${owner.memberNo}`, { as: abc }), 404);
    const still = await env.DB.prepare("select width from banners where id_banner = ?").bind(banner.idBanner).first<{ width: number }>();
    expect(still?.width).toBe(300);
  });

  it("rates 1-5 once per member per photo, awarding one M coin in the same batch", async () => {
    const owner = await signUp();
    const rater = await signUp();
    const banner = await photoOf(owner);
    const rated = expectOk(await call("POST", "/private/sns/banner-ratings", { as: rater, body: { idBanner: banner.idBanner, rating: 4 } }));
    expect(rated).toMatchObject({ rating: 4, ratingCount: 1 });
    expectFailure(await call("POST", "/private/sns/banner-ratings", { as: rater, body: { idBanner: banner.idBanner, rating: 5 } }), 409, "409501");
    const coins = await env.DB.prepare("select count(*) as n, sum(amount) as total from coin_ledger where member_id = ? and reason = 'photoRated'").bind(rater.memberId).first<{ n: number; total: number }>();
    expect(coins).toEqual({ n: 1, total: 1 });
    const review = expectOk(await call("GET", "/private/core/banners/review/SMP", { as: rater }));
    expect(review.some((b: { idBanner: number }) => b.idBanner === banner.idBanner)).toBe(false);

    for (const rating of [0, 6, "x"]) expectFailure(await call("POST", "/private/sns/banner-ratings", { as: owner, body: { idBanner: banner.idBanner, rating } }), 400);
    expectFailure(await call("POST", "/private/sns/banner-ratings", { as: owner, body: { idBanner: banner.idBanner, rating: 5 } }), 403, "403501");
    expectFailure(await call("POST", "/private/sns/banner-ratings", { body: { idBanner: banner.idBanner, rating: 5 } }), 401);
    const abc = await signUp("ABC");
    expectFailure(await call("POST", "/private/sns/banner-ratings", { as: abc, body: { idBanner: banner.idBanner, rating: 5 } }), 404);
    expectFailure(await call("POST", "/private/sns/banner-ratings", { as: rater, body: { idBanner: 99999999, rating: 5 } }), 404);
    const count = await env.DB.prepare("select rating_count as n from banners where id_banner = ?").bind(banner.idBanner).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("hides a blocked member's photos both ways", async () => {
    const owner = await signUp();
    const blocker = await signUp();
    const banner = await photoOf(owner);
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(blocker.memberId, owner.memberId, Date.now()).run();
    const list = expectOk(await call("GET", "/private/core/banners/SMP?pageSize=200", { as: blocker }));
    expect(list.some((b: { idBanner: number }) => b.idBanner === banner.idBanner)).toBe(false);
    expectFailure(await call("GET", `/private/core/banners/users/${blocker.memberNo}`, { as: owner }), 404);
    expectFailure(await call("POST", "/private/sns/banner-ratings", { as: owner, body: { idBanner: banner.idBanner, rating: 3 } }), 403);
    expectFailure(await call("POST", "/private/sns/banner-ratings", { as: blocker, body: { idBanner: banner.idBanner, rating: 3 } }), 404);
  });
});
