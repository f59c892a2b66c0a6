import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HomeDashboard } from "../../worker/contract/home";
import { getDb } from "../../worker/db/client";
import { flatBatch } from "../../worker/db/flat-batch";
import { loadDashboard } from "../../worker/features/home/home.service";
import { SPARE, homeListsOf, viewerListStatements } from "../../worker/features/home/home-lists";
import type { Member } from "../support/client";
import { asSession, complete, countingDb, many } from "./home-support";

// The API tests read home lists on every call (HOME_LISTS_TTL_SECONDS = 0 in tests/vitest.config.ts); these tests
// keep them, as deployed. The kept lists live in this isolate's module, keyed by tenant: each test has its own.
const keeping = (seconds = 60) => ({ ...env, HOME_LISTS_TTL_SECONDS: String(seconds) }) as Env;
const reading = { ...env, HOME_LISTS_TTL_SECONDS: "0" } as Env;

const block = (from: Member, to: Member) =>
  env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)")
    .bind(from.projectCode, from.memberId, to.memberId, Date.now())
    .run();

/** A tenant whose lists are all full: listable members active, chatting, visited, with photos and a flame owner. */
async function busyTenant(project: string, n: number) {
  const members = await many(n, project);
  const now = Date.now();
  for (const [i, m] of members.entries()) {
    await complete(m, { last_access: now - i * 1000, last_chat_at: now - i * 700, page_views: (i * 7) % 23, multi_gender: (i % 6) + 1, look_for: (i % 7), introduction: `An introduction long enough for note card ${i}` });
  }
  await env.DB.batch([
    ...members.map((m, i) =>
      env.DB.prepare("insert into banners (project_code, member_id, member_no, image, width, height, created_at) values (?, ?, ?, ?, 300, 200, ?)").bind(project, m.memberId, m.memberNo, `/media/${project}/${m.memberNo}/banner/${i}.jpg`, now - i),
    ),
    env.DB.prepare("insert into flame_passes (project_code, holder_member_id, created_at) values (?, ?, 1)").bind(project, members[Math.min(5, n - 1)]!.memberId),
  ]);
  return members;
}

/** The viewer's lists as the §5 rules in SQL give them (`not exists` over blocks): the oracle for the kept lists. */
async function listsByRulesInSql(viewer: Member, project: string) {
  const values = { me: viewer.memberId, projectCode: project, at: Date.now() };
  return homeListsOf(await flatBatch(env, viewerListStatements(getDb(env), values)));
}

/** Member numbers on each list of a dashboard, as the oracle's lists are cut. */
const codesOn = (home: HomeDashboard) => ({
  latestOnline: home.latestOnline.map((p) => p.simpleCode),
  latestSpeech: home.latestSpeech.map((p) => p.simpleCode),
  newbies: home.newbies.profiles.map((p) => p.simpleCode),
  hot: home.hotProfiles.map((p) => p.simpleCode),
  notes: home.notes.map((n) => n.profile.simpleCode),
  photos: home.photos!.map((p) => p.idBanner),
  flame: home.flame?.memberNo ?? null,
});

describe("home lists kept per tenant and isolate", () => {
  it("gives every viewer the lists the §5 rules in SQL give, with their own blocks (either way) applied at once", async () => {
    const members = await busyTenant("KLA", 90);
    const [plain, blocking, blockedBy, manyBlocks] = members;
    await block(blocking!, members[10]!);
    await block(members[11]!, blocking!);
    await block(blocking!, members[5]!); // the flame owner
    await block(members[12]!, blockedBy!);
    // More blocks than the kept lists' spare rows: this viewer's lists are read with the rules in SQL.
    for (const other of members.slice(20, 20 + SPARE + 2)) await block(manyBlocks!, other);

    await loadDashboard(keeping(), asSession(members[40]!), "KLA"); // another member's call keeps the lists
    for (const viewer of [plain!, blocking!, blockedBy!, manyBlocks!, members[40]!]) {
      const kept = await loadDashboard(keeping(), asSession(viewer), "KLA");
      const label = viewer === manyBlocks ? "many blocks" : viewer.memberNo;
      expect(kept, label).toEqual(await loadDashboard(reading, asSession(viewer), "KLA"));
      const oracle = await listsByRulesInSql(viewer, "KLA");
      expect(codesOn(kept), label).toEqual({
        latestOnline: oracle.recent.slice(0, 30).map((p) => p.simpleCode),
        latestSpeech: oracle.speech.map((p) => p.simpleCode),
        newbies: oracle.newbies.map((p) => p.simpleCode),
        hot: oracle.hot.map((p) => p.simpleCode),
        notes: oracle.notes.map((p) => p.simpleCode),
        photos: oracle.photos.map((p) => p.idBanner),
        flame: oracle.flame?.simpleCode ?? null,
      });
      const seen = [...kept.latestOnline, ...kept.hotProfiles, ...kept.latestSpeech, ...kept.newbies.profiles, ...kept.notes.map((n) => n.profile)];
      expect(seen.map((p) => p.simpleCode)).not.toContain(viewer.memberNo);
    }
    const blockingView = await loadDashboard(keeping(), asSession(blocking!), "KLA");
    expect(blockingView.flame).toBeNull();
    expect(blockingView.hotProfiles).toHaveLength(48);
    expect(blockingView.latestOnline.map((p) => p.simpleCode)).not.toContain(members[10]!.memberNo);
    expect(blockingView.latestOnline.map((p) => p.simpleCode)).not.toContain(members[11]!.memberNo);
    expect(blockingView.photos!.map((p) => p.memberNo)).not.toContain(members[10]!.memberNo);

    // A block made now shows on the next call, kept lists or not; so does its removal.
    const shown = (await loadDashboard(keeping(), asSession(plain!), "KLA")).latestOnline[0]!;
    await block(members.find((m) => m.memberNo === shown.simpleCode)!, plain!);
    const after = await loadDashboard(keeping(), asSession(plain!), "KLA");
    expect(after.latestOnline.map((p) => p.simpleCode)).not.toContain(shown.simpleCode);
    expect(after.latestOnline).toHaveLength(30);
    await env.DB.prepare("delete from blocks where target_member_id = ?").bind(plain!.memberId).run();
    expect((await loadDashboard(keeping(), asSession(plain!), "KLA")).latestOnline[0]!.simpleCode).toBe(shown.simpleCode);
  });

  it("reads the tenant's lists once per TTL in the same round trip, and never shares them across tenants", async () => {
    const [a, b] = await busyTenant("KLB", 40);
    const [other] = await busyTenant("KLC", 3);
    const call = async (viewer: Member, project: string, seconds?: number) => {
      const { db, stats } = countingDb(env.DB);
      const home = await loadDashboard({ ...keeping(seconds), DB: db } as Env, asSession(viewer), project);
      return { stats, home };
    };
    const cold = await call(a!, "KLB");
    const warm = await call(b!, "KLB");
    expect(cold.stats.roundTrips).toBe(1);
    expect(warm.stats.roundTrips).toBe(1);
    expect(warm.stats.rowsRead.length).toBeLessThan(cold.stats.rowsRead.length);
    expect(warm.stats.rowsRead.reduce((x, y) => x + y, 0)).toBeLessThan(cold.stats.rowsRead.reduce((x, y) => x + y, 0));

    // Another tenant reads its own lists: none of KLB's members appear.
    const apart = await call(other!, "KLC");
    expect(apart.stats.rowsRead.length).toBe(cold.stats.rowsRead.length);
    expect(apart.home.latestOnline.map((p) => p.simpleCode).sort()).toEqual(
      (await loadDashboard(reading, asSession(other!), "KLC")).latestOnline.map((p) => p.simpleCode).sort(),
    );
    expect(apart.home.latestOnline).toHaveLength(2);

    // A member who becomes listable shows once the kept lists are older than the TTL (here 1 second).
    await call(a!, "KLB", 1);
    const [newcomer] = await many(1, "KLB");
    await complete(newcomer!, { last_access: Date.now() + 60_000 });
    expect((await call(b!, "KLB", 1)).home.latestOnline[0]!.simpleCode).not.toBe(newcomer!.memberNo);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await call(b!, "KLB", 1)).home.latestOnline[0]!.simpleCode).toBe(newcomer!.memberNo);
  });
});
