import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, headersFor, uniqueEmail, type Member } from "../support/client";
import { notificationRows } from "./social-support";
import { purgeExpired } from "../../worker/features/privacy/retention";
import { SIGNAL_LIFETIME } from "../../worker/features/members/block-evasion";
import type { SessionInfo } from "../../worker/contract/session";

/**
 * Block evasion (README Decisions "Block evasion and per-item reports"): a member may block "and new accounts this
 * person makes"; accounts created afterwards that sign up or log in with the blocked account's address or device
 * (kept only as keyed hashes) are blocked for that member, silently. Tested as the member, the blocked person's new
 * account, a visitor and another tenant.
 */

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const freshDevice = () => crypto.randomUUID().replaceAll("-", "");
type Where = { ip: string; device?: string };
const whereHeaders = (where: Where) => ({ "CF-Connecting-IP": where.ip, ...(where.device ? { Cookie: `velvet_device=${where.device}` } : {}) });

async function signUpFrom(where: Where, project = "SMP"): Promise<Member & { setCookie: string | null }> {
  const email = uniqueEmail("evasion");
  const password = "correct horse battery";
  const reply = await call("POST", `/public/core/members/${project}`, { body: { username: email, password, adult: true }, headers: whereHeaders(where) });
  const info = expectOk(reply) as SessionInfo;
  return { ...info, email, password, headers: headersFor(info), setCookie: reply.headers.get("Set-Cookie") };
}
const loginFrom = (m: Member, where: Where) =>
  call("POST", `/public/core/sessions/${m.projectCode}`, { body: { username: m.email, password: m.password }, headers: whereHeaders(where) });
const blockWith = (from: Member, target: Member, alsoNewAccounts?: boolean) =>
  call("POST", "/private/core/blocks", { as: from, body: { targetMemberNo: target.memberNo, ...(alsoNewAccounts === undefined ? {} : { alsoNewAccounts }) } });
/** 404 both ways on a member's record is what a block looks like from either side. */
const sees = async (viewer: Member, other: Member) => (await call("GET", `/private/core/follows/${other.memberNo}`, { as: viewer })).status !== 404;
/** Accounts made after a block must be newer than it (ms clock). */
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("also block new accounts: the member", () => {
  it("blocks a later account signing up in the blocked account's browser, both ways, and never names it to the member", async () => {
    const member = await signUpFrom({ ip: freshIp(), device: freshDevice() });
    const home = { ip: freshIp(), device: freshDevice() };
    const blocked = await signUpFrom(home);
    const blockedInfo = expectOk(await blockWith(member, blocked, true));
    expect(blockedInfo).toMatchObject({ memberNo: blocked.memberNo, alsoNewAccounts: true });
    await tick();
    const again = await signUpFrom({ ip: freshIp(), device: home.device });
    expect(await sees(member, again)).toBe(false);
    expect(await sees(again, member)).toBe(false);
    // The blocked list shows the choice on the original block and never the new account: naming it would tell the
    // member who the blocked person's other accounts are.
    const list = expectOk(await call("GET", "/private/core/blocks", { as: member })) as { items: { profile: { simpleCode: string }; alsoNewAccounts: boolean }[] };
    expect(list.items.map((i) => [i.profile.simpleCode, i.alsoNewAccounts])).toEqual([[blocked.memberNo, true]]);
    expect(JSON.stringify(list)).not.toContain(again.memberNo);
  });

  it("leaves alone a new account that only shares the blocked account's address (a household, a venue, a carrier)", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const home = { ip: freshIp(), device: freshDevice() };
    const blocked = await signUpFrom(home);
    expectOk(await blockWith(member, blocked, true));
    await tick();
    const housemate = await signUpFrom({ ip: home.ip, device: freshDevice() });
    expect(await sees(member, housemate)).toBe(true);
  });

  it("blocks a later account that logs in with the blocked account's device, even from another address", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const device = freshDevice();
    const blocked = await signUpFrom({ ip: freshIp(), device });
    expectOk(await blockWith(member, blocked, true));
    await tick();
    const later = await signUpFrom({ ip: freshIp(), device: freshDevice() });
    expect(await sees(member, later)).toBe(true);
    expectOk(await loginFrom(later, { ip: freshIp(), device }));
    expect(await sees(member, later)).toBe(false);
  });

  it("leaves accounts alone without the choice, and accounts older than the block", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const home = { ip: freshIp(), device: freshDevice() };
    const older = await signUpFrom({ ip: freshIp() });
    const blocked = await signUpFrom(home);
    expectOk(await blockWith(member, blocked));
    await tick();
    const plainLater = await signUpFrom(home);
    expect(await sees(member, plainLater)).toBe(true);

    const other = await signUpFrom({ ip: freshIp() });
    const home2 = { ip: freshIp(), device: freshDevice() };
    const blocked2 = await signUpFrom(home2);
    expectOk(await blockWith(other, blocked2, true));
    // An account that existed before the block logging in from the same address is not "new".
    expectOk(await loginFrom(older, home2));
    expect(await sees(other, older)).toBe(true);
  });

  it("forgets the blocked account's signals when the block is lifted or the choice withdrawn", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const home = { ip: freshIp(), device: freshDevice() };
    const blocked = await signUpFrom(home);
    const { idBlock } = expectOk(await blockWith(member, blocked, true)) as { idBlock: number };
    const watches = () => env.DB.prepare("select count(*) as n from evasion_watches where member_id = ?").bind(member.memberId).first<{ n: number }>();
    expect((await watches())!.n).toBe(2);
    expectOk(await blockWith(member, blocked, false));
    expect((await watches())!.n).toBe(0);
    expectOk(await blockWith(member, blocked, true));
    expectOk(await call("DELETE", `/private/core/blocks/${idBlock}`, { as: member }));
    expect((await watches())!.n).toBe(0);
    await tick();
    const later = await signUpFrom(home);
    expect(await sees(member, later)).toBe(true);
  });

  it("does not block again an account the member unblocked, on a later login from the same place", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const home = { ip: freshIp(), device: freshDevice() };
    const blocked = await signUpFrom(home);
    expectOk(await blockWith(member, blocked, true));
    await tick();
    const later = await signUpFrom(home);
    const row = await env.DB.prepare("select id_block as id from blocks where member_id = ? and target_member_id = ?").bind(member.memberId, later.memberId).first<{ id: number }>();
    expectOk(await call("DELETE", `/private/core/blocks/${row!.id}`, { as: member }));
    expectOk(await loginFrom(later, home));
    expect(await sees(member, later)).toBe(true);
  });
});

describe("also block new accounts: the blocked person", () => {
  it("is never told: no notification, an ordinary sign-up answer, nothing in their own lists", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const home = { ip: freshIp(), device: freshDevice() };
    const blocked = await signUpFrom(home);
    expectOk(await blockWith(member, blocked, true));
    await tick();
    const again = await signUpFrom(home);
    expect(Object.keys(again)).not.toContain("blocked");
    expect(await notificationRows(again)).toEqual([]);
    expect(await notificationRows(blocked)).toEqual([]);
    const theirs = expectOk(await call("GET", "/private/core/blocks", { as: again })) as { items: unknown[] };
    expect(theirs.items).toEqual([]);
  });
});

describe("also block new accounts: visitors and other tenants", () => {
  it("needs a session to block", async () => {
    expectFailure(await call("POST", "/private/core/blocks", { body: { targetMemberNo: "12345678", alsoNewAccounts: true } }), 401);
  });

  it("refuses a non-boolean choice with 400", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const other = await signUpFrom({ ip: freshIp() });
    expectFailure(await call("POST", "/private/core/blocks", { as: member, body: { targetMemberNo: other.memberNo, alsoNewAccounts: "yes" } }), 400);
  });

  it("never blocks an account of another tenant signing up from the same address and device", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const home = { ip: freshIp(), device: freshDevice() };
    const blocked = await signUpFrom(home);
    expectOk(await blockWith(member, blocked, true));
    await tick();
    const elsewhere = await signUpFrom(home, "DEV");
    const rows = await env.DB.prepare("select count(*) as n from blocks where target_member_id = ?").bind(elsewhere.memberId).first<{ n: number }>();
    expect(rows!.n).toBe(0);
    // The same address hashes apart per tenant.
    const hashes = await env.DB.prepare("select member_id, hash from account_signals where kind = 'address' and member_id in (?, ?)").bind(blocked.memberId, elsewhere.memberId).all<{ hash: string }>();
    expect(new Set(hashes.results.map((r) => r.hash)).size).toBe(2);
  });
});

describe("signals: what is kept", () => {
  it("sets a first-party HttpOnly device cookie and keeps only keyed hashes, never the raw address or device id", async () => {
    const ip = "203.0.113.77";
    const first = await signUpFrom({ ip });
    expect(first.setCookie).toMatch(/velvet_device=[A-Za-z0-9]{32}/);
    expect(first.setCookie).toMatch(/HttpOnly/i);
    const device = /velvet_device=([A-Za-z0-9]{32})/.exec(first.setCookie!)![1]!;
    expectOk(await loginFrom(first, { ip, device }));
    const signals = await env.DB.prepare("select kind, hash from account_signals where member_id = ?").bind(first.memberId).all<{ kind: string; hash: string }>();
    expect(signals.results.map((r) => r.kind).sort()).toEqual(["address", "device"]);
    for (const row of signals.results) expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    // Nowhere in D1: every table's every row, as text.
    const tables = await env.DB.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations'").all<{ name: string }>();
    for (const { name } of tables.results) {
      const rows = await env.DB.prepare(`select * from "${name}"`).all();
      const text = JSON.stringify(rows.results);
      expect(text.includes(ip), name).toBe(false);
      expect(text.includes(device), name).toBe(false);
    }
  });

  it("purges signals and remembered watches after their lifetime", async () => {
    const member = await signUpFrom({ ip: freshIp() });
    const blocked = await signUpFrom({ ip: freshIp(), device: freshDevice() });
    expectOk(await blockWith(member, blocked, true));
    const count = async (table: string, column: string, id: string) =>
      (await env.DB.prepare(`select count(*) as n from ${table} where ${column} = ?`).bind(id).first<{ n: number }>())!.n;
    expect(await count("account_signals", "member_id", blocked.memberId)).toBe(2);
    await purgeExpired(env, Date.now() + SIGNAL_LIFETIME - 60_000);
    expect(await count("account_signals", "member_id", blocked.memberId)).toBe(2);
    await purgeExpired(env, Date.now() + SIGNAL_LIFETIME + 60_000);
    expect(await count("account_signals", "member_id", blocked.memberId)).toBe(0);
    expect(await count("evasion_watches", "member_id", member.memberId)).toBe(0);
  });
});

describe("operators: related accounts on a report", () => {
  it("shows how many accounts share a signal and their member numbers only, to operators of the tenant", async () => {
    const op = await signUpFrom({ ip: freshIp() });
    await env.DB.prepare("insert into operators (project_code, member_id, created_at) values (?, ?, ?)").bind("SMP", op.memberId, Date.now()).run();
    const home = { ip: freshIp(), device: freshDevice() };
    const target = await signUpFrom(home);
    const twin = await signUpFrom({ ip: home.ip });
    const reporter = await signUpFrom({ ip: freshIp() });
    expectOk(await call("POST", "/private/core/reports", { as: reporter, body: { targetMemberNo: target.memberNo, reason: "spam" } }));
    const queue = expectOk(await call("GET", "/private/core/moderation/SMP/queue", { as: op })) as {
      cases: { profile: { simpleCode: string }; relatedAccounts: { count: number; memberNos: string[] } }[];
    };
    const entry = queue.cases.find((c) => c.profile.simpleCode === target.memberNo)!;
    expect(entry.relatedAccounts).toEqual({ count: 1, memberNos: [twin.memberNo] });
    const hashes = await env.DB.prepare("select hash from account_signals where member_id = ?").bind(target.memberId).all<{ hash: string }>();
    const text = JSON.stringify(queue);
    for (const { hash } of hashes.results) expect(text.includes(hash)).toBe(false);
    expect(text.includes(home.ip)).toBe(false);
    // Anyone else, and another tenant's operator, gets 404.
    expectFailure(await call("GET", "/private/core/moderation/SMP/queue", { as: reporter }), 404);
    const foreignOp = await signUpFrom({ ip: freshIp() }, "DEV");
    await env.DB.prepare("insert into operators (project_code, member_id, created_at) values (?, ?, ?)").bind("DEV", foreignOp.memberId, Date.now()).run();
    expectFailure(await call("GET", "/private/core/moderation/SMP/queue", { as: foreignOp }), 404);
  });

  it("never names a reporter who shares a network or device with the reported member", async () => {
    const op = await signUpFrom({ ip: freshIp() });
    await env.DB.prepare("insert into operators (project_code, member_id, created_at) values (?, ?, ?)").bind("SMP", op.memberId, Date.now()).run();
    const home = { ip: freshIp(), device: freshDevice() };
    const target = await signUpFrom(home);
    const housemate = await signUpFrom(home);
    const marker = await signUpFrom(home);
    const twin = await signUpFrom({ ip: home.ip });
    expectOk(await call("POST", "/private/core/reports", { as: housemate, body: { targetMemberNo: target.memberNo, reason: "spam" } }));
    await env.DB.prepare(
      "insert into unqualified_reports (id_profile, reporter_id, created_at) select id_profile, ?, ? from profiles where member_id = ?",
    )
      .bind(marker.memberId, Date.now(), target.memberId)
      .run();
    const queue = expectOk(await call("GET", "/private/core/moderation/SMP/queue", { as: op })) as {
      cases: { profile: { simpleCode: string }; relatedAccounts: { count: number; memberNos: string[] } }[];
    };
    const entry = queue.cases.find((c) => c.profile.simpleCode === target.memberNo)!;
    expect(entry.relatedAccounts).toEqual({ count: 1, memberNos: [twin.memberNo] });
    expect(JSON.stringify(queue)).not.toContain(housemate.memberNo);
    expect(JSON.stringify(queue)).not.toContain(marker.memberNo);
  });
});
