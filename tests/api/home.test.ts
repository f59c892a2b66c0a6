import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HomeDashboard } from "../../worker/contract/home";
import { loadDashboard } from "../../worker/features/home/home.service";
import { call, expectFailure, expectOk, signUp, } from "../support/client";
import { asSession, complete, countingDb, many } from "./home-support";

describe("GET /core/home/{project}", () => {
  it("needs a session, a valid project code and the caller's own tenant", async () => {
    expectFailure(await call("GET", "/private/core/home/SMP"), 401, "401000");
    const member = await signUp();
    expectFailure(await call("GET", "/private/core/home/SMPX", { as: member }), 400, "400001");
    expectFailure(await call("GET", "/private/core/home/ABC", { as: member }), 404, "404000");
    expectFailure(await call("GET", "/private/core/home/SMP", { headers: { "X-Member-ID": member.memberId, "X-Access-Token": "y".repeat(32) } }), 401, "100003");
    expect(expectOk(await call("GET", "/private/core/home/smp", { as: member })).me.simpleCode).toBe(member.memberNo);
  });

  it("shows the profile checklist, the M coin balance and unread notifications of the caller only", async () => {
    const member = await signUp();
    let home = expectOk(await call("GET", "/private/core/home/SMP", { as: member })) as HomeDashboard;
    expect(home.checklist).toEqual({ nickname: false, introduction: false, avatarUploaded: false, avatarQualified: false });
    expect(home.coins).toEqual({ mcoin: 0, scoin: 0 });
    expect(home.today).toBe(new Date().toISOString().slice(0, 10));

    await complete(member, { qualify: 0, introduction: "Hello there" });
    await env.DB.batch([
      env.DB.prepare("insert into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values ('SMP', ?, 'mcoin', 1, 'photoRated', 'b1', 1), ('SMP', ?, 'mcoin', 1, 'photoRated', 'b2', 1), ('SMP', ?, 'scoin', 5, 'gift', 'g1', 1)").bind(member.memberId, member.memberId, member.memberId),
      env.DB.prepare("insert into notifications (project_code, member_id, type, params, created_at) values ('SMP', ?, 'follow', '{}', 1), ('SMP', ?, 'follow', '{}', 2)").bind(member.memberId, member.memberId),
    ]);
    home = expectOk(await call("GET", "/private/core/home/SMP", { as: member })) as HomeDashboard;
    expect(home.checklist).toEqual({ nickname: true, introduction: true, avatarUploaded: true, avatarQualified: false });
    expect(home.coins).toEqual({ mcoin: 2, scoin: 5 });
    expect(home.unreadNotifications).toBe(2);

    const other = await signUp();
    const theirs = expectOk(await call("GET", "/private/core/home/SMP", { as: other })) as HomeDashboard;
    expect(theirs.coins).toEqual({ mcoin: 0, scoin: 0 });
    expect(theirs.unreadNotifications).toBe(0);
  });

  it("fills the strips with listable members only: no blocked, unqualified, avatar-less or other-tenant members", async () => {
    const [viewer, shown, blockedByMe, blockedMe, unqualified, noAvatar] = await many(6);
    const foreign = await signUp("ABC");
    for (const m of [viewer!, shown!, blockedByMe!, blockedMe!]) await complete(m, { introduction: "A long enough introduction for a note card", last_chat_at: Date.now(), last_access: Date.now(), page_views: 7 });
    await complete(unqualified!, { qualify: 0, last_access: Date.now() });
    await complete(noAvatar!, { avator: "", last_access: Date.now() });
    await complete(foreign, { last_access: Date.now(), last_chat_at: Date.now() });
    await env.DB.batch([
      env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, 1)").bind(viewer!.memberId, blockedByMe!.memberId),
      env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, 1)").bind(blockedMe!.memberId, viewer!.memberId),
    ]);
    const home = expectOk(await call("GET", "/private/core/home/SMP", { as: viewer })) as HomeDashboard;
    const lists = [home.latestSpeech, home.latestOnline, home.newbies.profiles, home.mostVisits, home.hotProfiles, home.suggested, home.notes.map((n) => n.profile)];
    const codes = new Set(lists.flat().map((p) => p.simpleCode));
    expect(codes.has(shown!.memberNo)).toBe(true);
    for (const hidden of [viewer!, blockedByMe!, blockedMe!, unqualified!, noAvatar!, foreign]) expect(codes.has(hidden.memberNo)).toBe(false);
    expect(home.notes.every((n) => n.introduction.trim().length > 20)).toBe(true);
    expect(home.hotProfiles.length).toBeLessThanOrEqual(48);
    // Private fields never travel in embedded profiles.
    expect(JSON.stringify(home)).not.toMatch(/"(phone|mobile|safeword|email|defaultAddress)"/);
  });

  it("counts newbies over the whole tenant and hides short introductions from the note cards", async () => {
    const [viewer, short] = await many(2);
    await complete(viewer!);
    await complete(short!, { introduction: "exactly twenty chars", last_chat_at: Date.now() });
    const home = expectOk(await call("GET", "/private/core/home/SMP", { as: viewer })) as HomeDashboard;
    const total = (await env.DB.prepare("select count(*) as n from profiles where project_code = 'SMP'").first<{ n: number }>())!.n;
    expect(home.newbies.total).toBe(total);
    expect(home.notes.some((n) => n.profile.simpleCode === short!.memberNo)).toBe(false);
  });
});

describe("dashboard blocks from other features", () => {
  it("shows only today's (UTC) reminders, the guestbook tile and the flame owner", async () => {
    const [me, author, holder, talker] = await many(4);
    // The latest public chat line is the chat feature's LatestChatBar (live over its room socket).
    for (const m of [me!, author!, holder!, talker!]) await complete(m);
    const now = Date.now();
    const todayNoon = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T12:00:00.000Z`);
    await env.DB.batch([
      env.DB.prepare("insert into chat_reminders (project_code, member_id, title, description, remind_at, created_at) values ('SMP', ?, 'Today', 'call back', ?, 1), ('SMP', ?, 'Yesterday', '', ?, 1), ('SMP', ?, 'Tomorrow', '', ?, 1)")
        .bind(me!.memberId, todayNoon, me!.memberId, todayNoon - 86_400_000, me!.memberId, todayNoon + 86_400_000),
      env.DB.prepare("insert into chat_reminders (project_code, member_id, title, description, remind_at, created_at) values ('SMP', ?, 'Not mine', '', ?, 1)").bind(author!.memberId, todayNoon),
      env.DB.prepare("insert into guestbook_entries (project_code, owner_member_id, author_member_id, message, created_at, read_at) values ('SMP', ?, ?, 'hi', 1, null), ('SMP', ?, ?, 'again', 2, null), ('SMP', ?, ?, 'old', 3, 5)")
        .bind(me!.memberId, author!.memberId, me!.memberId, author!.memberId, me!.memberId, talker!.memberId),
      env.DB.prepare("insert into flame_passes (project_code, holder_member_id, created_at) values ('SMP', ?, 1)").bind(holder!.memberId),
    ]);
    let home = expectOk(await call("GET", "/private/core/home/SMP", { as: me })) as HomeDashboard;
    expect(home.reminders.map((r) => r.title)).toEqual(["Today"]);
    expect(home.reminders[0]!.remindAt).toMatch(/T12:00:00.000Z$/);
    expect(home.guestbook).toEqual({ count: 3, unread: 2 });
    expect(home.flame?.memberNo).toBe(holder!.memberNo);

    // A block either way hides the flame owner; a block or mute hides that author's guestbook entries.
    await env.DB.batch([
      env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, 1)").bind(holder!.memberId, me!.memberId),
      env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, 1)").bind(me!.memberId, talker!.memberId),
      env.DB.prepare("insert into mutes (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, 1)").bind(me!.memberId, author!.memberId),
    ]);
    home = expectOk(await call("GET", "/private/core/home/SMP", { as: me })) as HomeDashboard;
    expect(home.flame).toBeNull();
    expect(home.guestbook).toEqual({ count: 0, unread: 0 });
  });

});

describe("dashboard loader cost", () => {
  it("is one D1 round trip with bounded rows, however many members the tenant has", async () => {
    const project = "QRT";
    const [viewer] = await many(1, project);
    await complete(viewer!);
    const measure = async () => {
      const { db, stats } = countingDb(env.DB);
      const home = await loadDashboard({ ...env, DB: db } as Env, asSession(viewer!), project);
      return { stats, home };
    };
    const grow = async (n: number) => {
      for (const m of await many(n, project)) await complete(m, { last_access: Date.now(), last_chat_at: Date.now(), page_views: 3, introduction: "Long enough introduction for the cards" });
    };

    await grow(5);
    const small = await measure();
    await grow(45);
    const large = await measure();

    expect(small.stats.roundTrips).toBe(1);
    expect(small.stats.batches).toBe(1);
    expect(large.stats.roundTrips).toBe(1);
    expect(large.stats.rowsRead.length).toBe(small.stats.rowsRead.length);
    // Every card reads a bounded slice: each statement reads at most a fixed budget of rows, whatever the
    // tenant size ("newbies" counts the tenant from its counter row).
    for (const [i, rows] of large.stats.rowsRead.entries()) expect(rows, `statement ${i}`).toBeLessThanOrEqual(200);
    expect(large.home.newbies.total).toBe(51);
    expect(large.home.latestOnline).toHaveLength(30);
    expect(large.home.hotProfiles).toHaveLength(48);
  });
});
