import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COLLECTIBLE_PATHS as P, LOTTERY_MIN_ACCOUNT_DAYS, lotteryPrizeFor } from "../../worker/contract/collectibles";
import { runScheduledJobs } from "../../worker/scheduled";
import { DAY, utcDate } from "../../worker/lib/time";
import { call, expectFailure, expectOk, type Member } from "../support/client";
import { mcoin, member } from "./market-support";

/** The daily lottery (README Decisions "Collectibles and the daily lottery"): commitment, free entry, verifiable draw. */
const api = (method: string, as: Member, path: string, body?: unknown) => call(method, `/private${path}`, { as, body });

/** An independent SHA-256 (not the contract's helper), so the test checks the published formula, not itself. */
async function sha256(text: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A member the draw accepts: an approved avatar (`member()`) and an account older than LOTTERY_MIN_ACCOUNT_DAYS. */
async function entrant(project = "SMP") {
  const m = await member(project);
  await env.DB.prepare("update members set created_at = ? where id = ?").bind(Date.now() - (LOTTERY_MIN_ACCOUNT_DAYS + 1) * DAY, m.memberId).run();
  return m;
}

const prizeRows = async (memberId: string) =>
  (await env.DB.prepare("select count(*) as n from coin_ledger where member_id = ? and reason = 'lotteryPrize'").bind(memberId).first<{ n: number }>())!.n;

describe("the daily lottery", () => {
  it("publishes today's commitment (never the seed) before entries close; one free entry a day", async () => {
    const a = await entrant();
    const page = expectOk(await api("GET", a, P.lottery("SMP")));
    expect(page.today).toMatchObject({ drawDate: utcDate(), entered: false, myTicket: null, prize: lotteryPrizeFor("SMP"), prizeCoins: lotteryPrizeFor("SMP") / 100 });
    expect(page.today.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(page.today.closesAt)).toBe(Date.parse(`${utcDate()}T00:00:00.000Z`) + DAY);
    const seed = (await env.DB.prepare("select seed from lottery_draws where project_code = 'SMP' and draw_date = ?").bind(utcDate()).first<{ seed: string }>())!.seed;
    expect(JSON.stringify(page)).not.toContain(seed);

    const entered = expectOk(await api("POST", a, P.lotteryEntries("SMP"), {}));
    expect(entered).toMatchObject({ entered: true, commitment: page.today.commitment });
    expect(entered.myTicket).toMatch(/^[0-9a-f]{32}$/);
    expectFailure(await api("POST", a, P.lotteryEntries("SMP"), {}), 409, "409395");
    // The member's own data export lists their ticket (§7: the export walks every table that names them).
    const exported = expectOk(await call("GET", `/private/core/members/${a.memberId}/export`, { as: a }));
    expect(exported.tables.lottery_entries).toEqual([expect.objectContaining({ ticket: entered.myTicket, draw_date: utcDate() })]);
    expect(JSON.stringify(entered)).not.toContain(seed);
    // Not drawn yet: the draw's page shows no seed and no tickets.
    const early = expectOk(await api("GET", a, P.lotteryDraw("SMP", utcDate())));
    expect(early).toMatchObject({ seed: null, winnerIndex: null, tickets: [] });
  });

  it("is open only to established members: ten fresh accounts hold no ticket, nor does one without an approved avatar or paused", async () => {
    const fresh = await Promise.all(Array.from({ length: 10 }, () => member()));
    for (const m of fresh) {
      expect(expectOk(await api("GET", m, P.lottery("SMP"))).today.eligibility).toBe("accountTooNew");
      expectFailure(await api("POST", m, P.lotteryEntries("SMP"), {}), 403, "403391");
    }
    const noAvatar = await entrant();
    await env.DB.prepare("update profiles set qualify = 0 where member_id = ?").bind(noAvatar.memberId).run();
    expect(expectOk(await api("GET", noAvatar, P.lottery("SMP"))).today.eligibility).toBe("needsApprovedAvatar");
    expectFailure(await api("POST", noAvatar, P.lotteryEntries("SMP"), {}), 403, "403391");
    const paused = await entrant();
    await env.DB.prepare("update members set suspended_until = ? where id = ?").bind(Date.now() + DAY, paused.memberId).run();
    expect(expectOk(await api("GET", paused, P.lottery("SMP"))).today.eligibility).toBe("notActive");
    expectFailure(await api("POST", paused, P.lotteryEntries("SMP"), {}), 403, "403391");
    const ids = [...fresh, noAvatar, paused].map((m) => m.memberId);
    const held = await env.DB.prepare(`select count(*) as n from lottery_entries where member_id in (${ids.map(() => "?").join(",")})`).bind(...ids).first<{ n: number }>();
    expect(held!.n).toBe(0);
    const ok = await entrant();
    expect(expectOk(await api("GET", ok, P.lottery("SMP"))).today.eligibility).toBe("eligible");
    expectOk(await api("POST", ok, P.lotteryEntries("SMP"), {}));
  });

  it("draws from the scheduled job: the seed matches the commitment and anyone can recompute the winner from the ordered tickets", async () => {
    const members = await Promise.all([entrant(), entrant(), entrant(), entrant()]);
    const commitment = expectOk(await api("GET", members[0]!, P.lottery("SMP"))).today.commitment;
    for (const m of members) expectOk(await api("POST", m, P.lotteryEntries("SMP"), {}));
    const balances = await Promise.all(members.map((m) => mcoin(m.memberId)));
    // One more entrant is paused after entering: their ticket is not in the draw.
    const paused = await entrant();
    const pausedTicket = expectOk(await api("POST", paused, P.lotteryEntries("SMP"), {})).myTicket;
    await env.DB.prepare("update members set suspended_until = ? where id = ?").bind(Date.now() + 30 * DAY, paused.memberId).run();

    const drawDate = utcDate();
    await runScheduledJobs(env, Date.now() + DAY);
    const draw = expectOk(await api("GET", members[0]!, P.lotteryDraw("SMP", drawDate)));
    expect(draw.commitment).toBe(commitment);
    expect(await sha256(draw.seed)).toBe(commitment);
    expect(draw.tickets.length).toBe(draw.entryCount);
    expect(draw.tickets).not.toContain(pausedTicket);
    expect(await prizeRows(paused.memberId)).toBe(0);
    // README formula: int(first 12 hex of SHA-256(seed:drawDate:tickets joined by ",")) mod n.
    const digest = await sha256(`${draw.seed}:${drawDate}:${draw.tickets.join(",")}`);
    const index = Number.parseInt(digest.slice(0, 12), 16) % draw.tickets.length;
    expect(draw.winnerIndex).toBe(index);
    expect(draw.winnerTicket).toBe(draw.tickets[index]);
    // The tickets name nobody.
    for (const m of members) {
      expect(JSON.stringify(draw)).not.toContain(m.memberId);
      expect(JSON.stringify(draw)).not.toContain(`"${m.memberNo}"`);
    }

    // Exactly the winning ticket's holder is told and paid, once, even if the job runs again.
    const winnerRow = (await env.DB.prepare("select member_id as m from lottery_entries where ticket = ?").bind(draw.winnerTicket).first<{ m: string }>())!.m;
    await runScheduledJobs(env, Date.now() + DAY + 1000);
    for (const [i, m] of members.entries()) {
      const mine = expectOk(await api("GET", m, P.lotteryDraw("SMP", drawDate)));
      const won = m.memberId === winnerRow;
      expect(mine.youWon).toBe(won);
      expect(await mcoin(m.memberId)).toBe(balances[i]! + (won ? lotteryPrizeFor("SMP") / 100 : 0));
      expect(await prizeRows(m.memberId)).toBe(won ? 1 : 0);
      const notices = expectOk(await call("GET", "/private/core/notifications?pageSize=50", { as: m }));
      const items = (notices.items ?? notices) as { type: string; params: Record<string, unknown>; target: unknown }[];
      const lotteryNotices = items.filter((n) => n.type === "lotteryWon");
      expect(lotteryNotices).toHaveLength(won ? 1 : 0);
      if (won) expect(lotteryNotices[0]).toMatchObject({ params: { drawDate, coins: lotteryPrizeFor("SMP") / 100 }, target: { kind: "lottery" } });
    }
  });

  it("is tenant-scoped: another tenant has its own draw and cannot read or enter this one", async () => {
    const smp = await entrant();
    const abc = await entrant("ABC");
    const mine = expectOk(await api("GET", smp, P.lottery("SMP"))).today.commitment;
    const theirs = expectOk(await api("GET", abc, P.lottery("ABC"))).today.commitment;
    expect(theirs).not.toBe(mine);
    expectFailure(await api("GET", abc, P.lottery("SMP")), 404);
    expectFailure(await api("POST", abc, P.lotteryEntries("SMP"), {}), 404);
    expectFailure(await api("GET", abc, P.lotteryDraw("SMP", utcDate())), 404);
    expectFailure(await api("GET", abc, P.lotteryDraw("ABC", "1999-01-01")), 404);
    expectFailure(await api("GET", abc, P.lotteryDraw("ABC", "not-a-date")), 404);
    expectFailure(await call("GET", `/private${P.lottery("SMP")}`), 401);
  });

});
