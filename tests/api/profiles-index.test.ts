import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { discovery, listProfilesQuery, type ListOptions } from "../../worker/features/profiles/profile-discovery";
import { call, expectOk } from "../support/client";

const PROJECT = "IDX";
const MEMBERS = 4000;
const VIEWER = "mviewer0000000000000000";

/** A few thousand members inserted with batched SQL (not sign-up), half of them listable (an avatar and its rendition). */
beforeAll(async () => {
  const now = Date.now();
  const rows: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const listable = i % 2 === 0;
    const month = String(1 + (i % 12)).padStart(2, "0");
    const day = String(1 + (i % 28)).padStart(2, "0");
    rows.push(
      `('m${String(i).padStart(22, "0")}', '${PROJECT}', '${30000000 + i}', 'Member ${i}', '${"intro ".repeat(i % 3 === 0 ? 5 : 1)}', ` +
        `'${listable ? `/media/${PROJECT}/${30000000 + i}/avatar/a${i}.jpg` : ""}', '${listable ? `/media/${PROJECT}/${30000000 + i}/blur/b${i}.jpg` : ""}', ${listable ? 1 : 0}, ${1 + (i % 6)}, ${i % 7}, '1990-${month}-${day}', ` +
        `'${["aries", "leo", "virgo"][i % 3]}', '${["en", "ja", "zh-TW"][i % 3]}', ${i % 500}, ${now - i * 1000}, ${i % 4 === 0 ? now - i * 500 : "null"}, ${now - i * 2000}, ${now - i * 700})`,
    );
  }
  const statements = [];
  for (let i = 0; i < rows.length; i += 200) {
    statements.push(
      env.DB.prepare(
        `insert into profiles (member_id, project_code, simple_code, nickname, introduction, avator, avator_blur, qualify, multi_gender, look_for, birthday, zodiac_sign, language,
          page_views, last_access, last_chat_at, created_at, updated_at) values ${rows.slice(i, i + 200).join(",")}`,
      ),
    );
  }
  statements.push(env.DB.prepare(`insert into blocks (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)`).bind(PROJECT, VIEWER, "m0000000000000000000000", now));
  await env.DB.batch(statements);
});

async function measure(options: ListOptions, viewer = VIEWER) {
  const query = listProfilesQuery(env, PROJECT, { memberId: viewer, canSeeAvatars: true, safeMode: false }, options).toSQL();
  const result = await env.DB.prepare(query.sql).bind(...query.params).all();
  const plan = await env.DB.prepare(`explain query plan ${query.sql}`).bind(...query.params).all<{ detail: string }>();
  return { rows: result.results.length, rowsRead: result.meta.rows_read, plan: plan.results.map((r) => r.detail).join(" | ") };
}

describe("discovery lists read an index, never the members table", () => {
  const lists: [string, ListOptions][] = [
    ["hot", discovery.hot(30)],
    ["intro", discovery.intro(100)],
    ["last-chat-message", discovery.lastChat(30)],
    ["last-access", discovery.lastAccess(30)],
    ["new", discovery.newest(30)],
    ["birthday", discovery.birthday(20, Date.UTC(2026, 4, 9))],
    ["multi-gender", discovery.multiGender([3], 30)],
    ["zodiac-sign", discovery.zodiac("leo", 20)],
    ["related-profiles", discovery.related("ja", 3, 20)],
  ];
  for (const [name, options] of lists) {
    it(`${name}: rows_read stays near the page size`, async () => {
      const { rows, rowsRead, plan } = await measure(options);
      expect(rows, name).toBe(options.limit);
      expect(plan, name).not.toMatch(/SCAN profiles(?! USING)/);
      expect(plan, name).toMatch(/SEARCH profiles USING (COVERING )?INDEX/);
      // A full scan would read 4000+ rows; an indexed page reads its rows plus index/block probes.
      expect(rowsRead, `${name} read ${rowsRead}`).toBeLessThan(options.limit * 8);
    });
  }

  it("the hot list over HTTP answers the page size and skips the blocked member", async () => {
    const hot = expectOk(await call("GET", `/public/core/profiles/${PROJECT}/hot?pageSize=30`));
    expect(hot).toHaveLength(30);
    expect(hot.every((p: { avator: string; qualify: boolean }) => p.avator && p.qualify)).toBe(true);
    const { rowsRead } = await measure(discovery.hot(30), "nobody");
    const full = await env.DB.prepare("select count(*) as n from profiles where project_code = ? and nickname like '%9%'").bind(PROJECT).all();
    expect(full.meta.rows_read).toBeGreaterThanOrEqual(MEMBERS);
    expect(rowsRead).toBeLessThan(full.meta.rows_read / 10);
  });
});

describe("nickname search and the member count do not grow with the tenant", () => {
  it("finds nicknames by substring through the trigram index, within the tenant, after renames", async () => {
    const search = discovery.search(PROJECT, "ber 39", 20);
    const { rows, rowsRead, plan } = await measure(search);
    expect(rows).toBeGreaterThan(0);
    expect(plan).toMatch(/VIRTUAL TABLE INDEX/);
    expect(rowsRead, `search read ${rowsRead}`).toBeLessThan(20 * 8);
    // Every match really contains the keyword and is listable (even indexes are listable in this tenant).
    const found = expectOk(await call("GET", `/public/core/profiles/${PROJECT}/search?keyword=${encodeURIComponent("MEMBER 398")}&pageSize=20`));
    expect(found.map((p: { nickname: string }) => p.nickname).sort()).toEqual(["Member 398", "Member 3980", "Member 3982", "Member 3984", "Member 3986", "Member 3988"]);
    // Another tenant's identical nickname is not found; a rename is searchable at once, the old name is not.
    await env.DB.prepare(`insert into profiles (member_id, project_code, simple_code, nickname, avator, qualify, created_at, updated_at, last_access) values ('mothertenant00000000000', 'OTH', '39999999', 'Member 398', '/media/OTH/a.jpg', 1, 1, 1, 1)`).run();
    await env.DB.prepare(`update profiles set nickname = 'Quokka Queen' where project_code = ? and nickname = 'Member 3980'`).bind(PROJECT).run();
    const again = expectOk(await call("GET", `/public/core/profiles/${PROJECT}/search?keyword=member%20398&pageSize=20`));
    expect(again.map((p: { nickname: string }) => p.nickname).sort()).toEqual(["Member 398", "Member 3982", "Member 3984", "Member 3986", "Member 3988"]);
    expect(expectOk(await call("GET", `/public/core/profiles/${PROJECT}/search?keyword=kka%20Qu`)).map((p: { nickname: string }) => p.nickname)).toEqual(["Quokka Queen"]);
    // Two characters fall back to a scan and still find the member.
    expect(expectOk(await call("GET", `/public/core/profiles/${PROJECT}/search?keyword=Qu&pageSize=5`)).map((p: { nickname: string }) => p.nickname)).toContain("Quokka Queen");
  });

  it("counts members from the tenant's counter row", async () => {
    const { count } = expectOk(await call("GET", `/public/core/members/count/${PROJECT}`));
    const exact = await env.DB.prepare("select count(*) as n from profiles where project_code = ?").bind(PROJECT).first<{ n: number }>();
    expect(count).toBe(exact!.n);
    const before = await env.DB.prepare("select members from project_counters where project_code = ?").bind(PROJECT).first<{ members: number }>();
    await env.DB.prepare("delete from profiles where project_code = ? and simple_code = ?").bind(PROJECT, "30000001").run();
    expect(expectOk(await call("GET", `/public/core/members/count/${PROJECT}`)).count).toBe(before!.members - 1);
    const counted = await env.DB.prepare("select members from project_counters where project_code = ?").bind(PROJECT).all();
    expect(counted.meta.rows_read).toBeLessThanOrEqual(2);
  });
});
