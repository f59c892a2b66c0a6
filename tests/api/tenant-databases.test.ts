import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, login, signUp, uniqueEmail, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";
import { allDatabases, apiProjectLocator, databaseFor } from "../../worker/db/router";
import { runScheduledJobs } from "../../worker/scheduled";

// README Decisions "A tenant per database" (worker/db/router.ts): in tests the tenant TST has its own database
// (wrangler.toml DB_TST); every other tenant, SMP here, lives in DB. Both are queried directly: a tenant's rows
// are in its own database only, and nothing of one tenant is found through the other.

const shared = env.DB;
const own = (env as unknown as { DB_TST: D1Database }).DB_TST;
const count = async (db: D1Database, query: string, ...values: unknown[]) =>
  (await db.prepare(`select count(*) as n from (${query})`).bind(...values).first<{ n: number }>())!.n;
/** A TST member as its client calls: private routes without a project in their path name it in a header. */
const inTst = (m: Member): Member => ({ ...m, headers: { ...m.headers, "X-Project-Code": "TST" } });

describe("two tenants on two databases", () => {
  it("routes TST to its own binding and every other tenant to DB; scheduled jobs see each database once", () => {
    expect(databaseFor(env, "TST")).toBe(own);
    expect(databaseFor(env, "tst")).toBe(own);
    expect(databaseFor(env, "SMP")).toBe(shared);
    expect(databaseFor(env, "ABC")).toBe(shared);
    expect(allDatabases(env)).toEqual([shared, own]);
  });

  it("reads a tenant from an API path only in its route's {project} segment", async () => {
    const locate = apiProjectLocator(() => [
      { path: "/api/v6/private/core/home/:project" },
      { path: "/api/v6/public/core/profiles/:project/member/:simpleCode" },
      { path: "/api/v6/private/core/profiles/:memberId" },
      { path: "*" },
    ]);
    expect(locate("/api/v6/private/core/home/tst")).toBe("TST");
    expect(locate("/api/v6/public/core/profiles/SMP/member/TST")).toBe("SMP");
    expect(locate("/api/v6/private/core/profiles/TST")).toBeNull();
    expect(locate("/api/v6/private/core/home/TST/extra")).toBeNull();

    // Through the worker: an SMP member's call whose member id spells TST stays in SMP's database, where the session
    // is known (before, any segment naming a tenant with its own database routed there: the session was "unknown").
    const smp = await signUp("SMP");
    const spelled = await call("GET", "/private/core/profiles/TST", { as: smp });
    expect(spelled.status).not.toBe(401);
    expect((spelled.body as { returnCode: string }).returnCode).not.toBe("100003");
  });

  it("keeps each tenant's sign-up, session and profile rows in its own database only", async () => {
    const smp = await signUp("SMP");
    const tst = inTst(await signUp("TST"));
    expect(tst.projectCode).toBe("TST");
    for (const [db, mine, theirs] of [
      [shared, smp, tst],
      [own, tst, smp],
    ] as const) {
      expect(await count(db, "select 1 from members where id = ?", mine.memberId)).toBe(1);
      expect(await count(db, "select 1 from sessions where member_id = ?", mine.memberId)).toBe(1);
      expect(await count(db, "select 1 from members where id = ?", theirs.memberId)).toBe(0);
      expect(await count(db, "select 1 from profiles where member_id = ?", theirs.memberId)).toBe(0);
      expect(await count(db, "select 1 from sessions where member_id = ?", theirs.memberId)).toBe(0);
    }
    expect(await count(own, "select 1 from members where project_code <> 'TST'")).toBe(0);
    expect(await count(shared, "select 1 from members where project_code = 'TST'")).toBe(0);

    // Acting in TST: a private write (project named by the header) and a read with the project in the path.
    expectOk(await call("PATCH", `/private/core/profiles/${tst.memberId}`, { as: tst, body: { nickname: "Own database" } }));
    expect((await own.prepare("select nickname from profiles where member_id = ?").bind(tst.memberId).first<{ nickname: string }>())!.nickname).toBe("Own database");
    const home = expectOk(await call("GET", "/private/core/home/TST", { as: { headers: { "X-Access-Token": tst.token, "X-Member-ID": tst.memberId } } }));
    expect(JSON.stringify(home)).not.toContain(smp.memberId);
    expect(await count(shared, "select 1 from profiles where nickname = 'Own database'")).toBe(0);
  });

  it("finds no member, session or record of one tenant from the other", async () => {
    const smp = await signUp("SMP");
    const tst = inTst(await signUp("TST"));
    // A TST session presented without naming TST reaches DB, where it does not exist; an SMP session sent to TST
    // reaches DB_TST, where it does not exist: both are 100003, as any unknown session.
    expectFailure(await call("GET", `/private/core/profiles/${tst.memberId}`, { headers: { "X-Access-Token": tst.token, "X-Member-ID": tst.memberId } }), 401, "100003");
    expectFailure(await call("GET", `/private/core/profiles/${smp.memberId}`, { as: inTst(smp) }), 401, "100003");
    expectFailure(await call("GET", "/private/core/home/TST", { as: smp }), 401, "100003");
    // Each member reads itself in its own tenant, and the other's profile is not found.
    expectOk(await call("GET", `/private/core/profiles/${tst.memberId}`, { as: tst }));
    expectOk(await call("GET", `/private/core/profiles/${smp.memberId}`, { as: smp }));
    const across = await call("GET", `/private/core/profiles/${tst.memberId}`, { as: smp });
    expect(across.status).toBe(404);
    expect(JSON.stringify(across.body)).not.toContain(tst.memberNo);
    const back = await call("GET", `/private/core/profiles/${smp.memberId}`, { as: tst });
    expect(back.status).toBe(404);

    // Logging in: the TST account exists in TST only.
    expectOk(await login("TST", tst.email, tst.password));
    expect((await login("SMP", tst.email, tst.password)).status).toBeGreaterThanOrEqual(400);
    // A request cannot put one tenant's rows in the other's database: the path names SMP, the header TST; the path
    // wins, so the SMP account lands in SMP's database and nothing in TST's.
    const email = uniqueEmail("crossing");
    const crossing = await call("POST", "/public/core/members/SMP", { body: { username: email, password: "Passw0rd!x", adult: true }, headers: { "X-Project-Code": "TST" } });
    expect(crossing.status).toBe(200);
    expect(await count(own, "select 1 from members where email = ?", email)).toBe(0);
    expect(await count(shared, "select 1 from members where email = ? and project_code = 'SMP'", email)).toBe(1);
  });

  it("rooms of a tenant read and write its database: presence lands in DB_TST", async () => {
    const tst = inTst(await signUp("TST"));
    const socket = (await openSocket(tst, "presence", "TST~presence")) as TestSocket;
    expect((socket as unknown as Response).status ?? 101).toBe(101);
    await socket.next();
    expect(await count(own, "select 1 from chat_presence where member_id = ? and online = 1", tst.memberId)).toBe(1);
    expect(await count(shared, "select 1 from chat_presence where member_id = ?", tst.memberId)).toBe(0);
    socket.close();
    // A TST member cannot open a room of another tenant (its ticket is not found in DB).
    const refused = await openSocket(tst, "presence", "SMP~presence");
    expect(refused instanceof Response && refused.status >= 400).toBe(true);
  });

  it("scheduled jobs run on each database: expired sessions are purged in both", async () => {
    const smp = await signUp("SMP");
    const tst = inTst(await signUp("TST"));
    await shared.prepare("update sessions set expires_at = 1 where member_id = ?").bind(smp.memberId).run();
    await own.prepare("update sessions set expires_at = 1 where member_id = ?").bind(tst.memberId).run();
    await runScheduledJobs(env);
    expect(await count(shared, "select 1 from sessions where member_id = ?", smp.memberId)).toBe(0);
    expect(await count(own, "select 1 from sessions where member_id = ?", tst.memberId)).toBe(0);
  });
});
