import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HomeDashboard } from "../../worker/contract/home";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { form, giveAvatar, imageBytes, midTone } from "./profiles-helpers";

async function photoOf(m: Member) {
  const up = expectOk(await call("POST", `/private/core/files/${m.projectCode}/${m.memberId}`, { as: m, body: form(imageBytes(300, 200, midTone)) }));
  return expectOk(await call("POST", `/private/core/banners/${m.memberId}`, { as: m, body: { image: up.url, pickable: true, width: 300, height: 200 } })) as { idBanner: number };
}

const home = async (m: Member) => expectOk(await call("GET", `/private/core/home/${m.projectCode}`, { as: m })) as HomeDashboard;
const ledger = async (m: Member) =>
  (await env.DB.prepare("select count(*) as n, coalesce(sum(amount), 0) as total from coin_ledger where member_id = ? and reason = 'photoRated'").bind(m.memberId).first<{ n: number; total: number }>())!;

describe("photo review session on the dashboard", () => {
  it("offers the prompt, takes 10 ratings through /sns/banner-ratings, pays 1 M coin per photo once, then retires the prompt", async () => {
    const owner = await signUp();
    await giveAvatar(owner);
    const photos: number[] = [];
    for (let i = 0; i < 12; i++) photos.push((await photoOf(owner)).idBanner);
    const reviewer = await signUp();
    await giveAvatar(reviewer);

    let dashboard = await home(reviewer);
    expect(dashboard.photoReview).toEqual({ available: 10, ratedToday: 0, done: false });
    expect(dashboard.photos!.map((p) => p.idBanner)).toEqual(expect.arrayContaining(photos));
    expect(dashboard.photos!.find((p) => p.idBanner === photos[0])?.profile?.simpleCode).toBe(owner.memberNo);

    // The session: fetch the review queue, rate until ten ratings are in (ratings 1..5, as the modal sends them).
    let rated = 0;
    const ratedIds: number[] = [];
    while (rated < 10) {
      const queue = expectOk(await call("GET", "/private/core/banners/review/SMP", { as: reviewer })) as { idBanner: number }[];
      expect(queue.length).toBeGreaterThan(0);
      for (const photo of queue) {
        if (rated === 10) break;
        expectOk(await call("POST", "/private/sns/banner-ratings", { as: reviewer, body: { idBanner: photo.idBanner, rating: (rated % 5) + 1 } }));
        ratedIds.push(photo.idBanner);
        rated++;
      }
    }
    expect(await ledger(reviewer)).toEqual({ n: 10, total: 10 });

    dashboard = await home(reviewer);
    expect(dashboard.photoReview!.ratedToday).toBe(10);
    expect(dashboard.photoReview!.done).toBe(true);
    expect(dashboard.coins.mcoin).toBe(10);

    // Once per photo: rating a photo again is refused and pays nothing more.
    const again = await call("POST", "/private/sns/banner-ratings", { as: reviewer, body: { idBanner: ratedIds[0], rating: 3 } });
    if (again.status === 200) throw new Error("a second rating of the same photo was accepted");
    expect(await ledger(reviewer)).toEqual({ n: 10, total: 10 });
    // Ratings out of 1..5 change nothing.
    for (const rating of [0, 6, 2.5]) expectFailure(await call("POST", "/private/sns/banner-ratings", { as: reviewer, body: { idBanner: photos[11], rating } }), 400);
    expect(await ledger(reviewer)).toEqual({ n: 10, total: 10 });

    // Another member's prompt is untouched.
    const other = await signUp();
    expect((await home(other)).photoReview).toEqual({ available: 10, ratedToday: 0, done: false });
  });

  it("does not offer my own photos for review nor photos of members I blocked", async () => {
    // Its own tenant, so the other test's photos are not in the way.
    const me = await signUp("ABC");
    await giveAvatar(me);
    await photoOf(me);
    expect((await home(me)).photoReview!.available).toBe(0);
    const blocked = await signUp("ABC");
    await giveAvatar(blocked);
    const theirs = await photoOf(blocked);
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('ABC', ?, ?, 1)").bind(me.memberId, blocked.memberId).run();
    const dashboard = await home(me);
    expect(dashboard.photoReview!.available).toBe(0);
    expect(dashboard.photos!.some((p) => p.idBanner === theirs.idBanner)).toBe(false);
  });
});

describe("recent visitors on the dashboard", () => {
  it("lists my visitors newest first with their visit time, hiding nameless and blocked visitors", async () => {
    const [me, early, late, nameless, blocked] = [await signUp(), await signUp(), await signUp(), await signUp(), await signUp()];
    for (const [m, name] of [[early, "Early"], [late, "Late"], [blocked, "Blocked"]] as const) {
      await env.DB.prepare("update profiles set nickname = ? where member_id = ?").bind(name, m.memberId).run();
    }
    const visit = (visitor: Member, at: number) =>
      env.DB.prepare("insert into visitors (project_code, member_id, visitor_id, visit_count, date_upd) values ('SMP', ?, ?, 1, ?)").bind(me.memberId, visitor.memberId, at);
    await env.DB.batch([visit(early, 1_000), visit(late, 2_000), visit(nameless, 3_000), visit(blocked, 4_000)]);
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, 1)").bind(blocked.memberId, me.memberId).run();
    const dashboard = await home(me);
    expect(dashboard.visitors!.map((v) => v.nickname)).toEqual(["Late", "Early"]);
    expect(dashboard.visitors![0]!.dateUpd).toBe(new Date(2_000).toISOString());
    expect((await home(early)).visitors).toEqual([]);
  });
});
