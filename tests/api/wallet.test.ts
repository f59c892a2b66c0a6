import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { moveCoins } from "../../worker/features/coins/coins.service";
import type { AppError } from "../../worker/lib/app-error";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { block, grantCoins, mcoin, member } from "./market-support";

const transfer = (as: Member | null, memberId: string, body: unknown) => call("POST", `/private/core/wallet/transfer/${memberId}`, { as, body });

/** Issues a one-time code through the API and reads it from the local mail outbox (README). */
async function otpFor(m: Member) {
  expectOk(await call("POST", `/private/core/otp/${m.memberId}`, { as: m, body: {} }));
  const mail = await env.DB.prepare("select body from mail_outbox where to_email = ? order by id desc limit 1").bind(m.email).first<{ body: string }>();
  return mail!.body.match(/\b(\d{6})\b/)![1]!;
}

const ledgerRows = async (memberId: string) =>
  (await env.DB.prepare("select count(*) as n from coin_ledger where member_id = ?").bind(memberId).first<{ n: number }>())!.n;

describe("wallet transfer {simpleCode, amount, otp}", () => {
  it("moves whole M coins sent as hundredths, confirmed by a one-time code", async () => {
    const from = await member();
    const to = await member();
    await grantCoins(from, 5);
    const otp = await otpFor(from);
    const result = expectOk(await transfer(from, from.memberId, { simpleCode: to.memberNo, amount: 300, otp }));
    expect(result.transfer).toMatchObject({ direction: "out", amount: 300, coins: 3, counterparty: { simpleCode: to.memberNo } });
    expect(result.balance.mcoin).toBe(2);
    expect(result.replayed).toBe(false);
    expect(await mcoin(to.memberId)).toBe(3);
    expect(expectOk(await call("GET", `/private/core/pvs/${to.memberId}`, { as: to })).mcoin).toBe(3);
    // The recipient sees it in their list; the code is spent.
    const list = expectOk(await call("GET", `/private/core/wallet/transfers/${to.memberId}`, { as: to }));
    expect(list[0]).toMatchObject({ direction: "in", coins: 3, counterparty: { simpleCode: from.memberNo } });
  });

  it("is idempotent: the same request retried (same code, or same requestId) moves coins once", async () => {
    const from = await member();
    const to = await member();
    await grantCoins(from, 10);
    const otp = await otpFor(from);
    const body = { simpleCode: to.memberNo, amount: 200, otp };
    const replies = await Promise.all([transfer(from, from.memberId, body), transfer(from, from.memberId, body), transfer(from, from.memberId, body)]);
    for (const r of replies) expect(expectOk(r).transfer.coins).toBe(2);
    expect(await mcoin(from.memberId)).toBe(8);
    expect(await mcoin(to.memberId)).toBe(2);
    expect(expectOk(await transfer(from, from.memberId, body)).replayed).toBe(true);

    const otp2 = await otpFor(from);
    const withId = { simpleCode: to.memberNo, amount: 100, otp: otp2, requestId: "pay-rent-0001" };
    expectOk(await transfer(from, from.memberId, withId));
    expect(expectOk(await transfer(from, from.memberId, withId)).replayed).toBe(true);
    // A spent code cannot pay for another transfer, even before it expires.
    const third = await member();
    expectFailure(await transfer(from, from.memberId, { simpleCode: third.memberNo, amount: 100, otp: otp2 }), 400, "400104");
    // The same requestId for a different transfer is refused, nothing moves.
    expectFailure(await transfer(from, from.memberId, { ...withId, amount: 500 }), 409, "409307");
    expect(await mcoin(from.memberId)).toBe(7);
    expect(await mcoin(to.memberId)).toBe(3);
  });

  it("refuses without enough coins, with a wrong code (400103), or a bad amount — and moves nothing", async () => {
    const from = await member();
    const to = await member();
    await grantCoins(from, 2);
    const otp = await otpFor(from);
    expectFailure(await transfer(from, from.memberId, { simpleCode: to.memberNo, amount: 300, otp }), 409, "409306");
    expectFailure(await transfer(from, from.memberId, { simpleCode: to.memberNo, amount: 150, otp }), 400, "400304");
    // The code survived the refusals above; a wrong code is 400103 (the session stays valid) and moves nothing.
    const wrong = otp === "000000" ? "111111" : "000000";
    expectFailure(await transfer(from, from.memberId, { simpleCode: to.memberNo, amount: 100, otp: wrong }), 400, "400103");
    for (const bad of [
      {},
      { simpleCode: to.memberNo, amount: -100, otp },
      { simpleCode: to.memberNo, amount: 0, otp },
      { simpleCode: to.memberNo, amount: 1.5, otp },
      { simpleCode: to.memberNo, amount: "100", otp },
      { simpleCode: to.memberNo, amount: 100, otp: "12" },
      { simpleCode: "me", amount: 100, otp },
    ]) {
      expectFailure(await transfer(from, from.memberId, bad), 400);
    }
    expectFailure(await transfer(from, from.memberId, { simpleCode: from.memberNo, amount: 100, otp }), 400, "400303");
    expect(await mcoin(from.memberId)).toBe(2);
    expect(await mcoin(to.memberId)).toBe(0);
    expect(await ledgerRows(to.memberId)).toBe(0);
  });

  it("who may not: anonymous 401, another member's wallet 403, other tenant and blocked recipients 404", async () => {
    const from = await member();
    const to = await member();
    await grantCoins(from, 3);
    expectFailure(await transfer(null, from.memberId, { simpleCode: to.memberNo, amount: 100, otp: "123456" }), 401);
    expectFailure(await transfer(to, from.memberId, { simpleCode: to.memberNo, amount: 100, otp: "123456" }), 403);
    const abroad = await signUp("ABC");
    expectFailure(await transfer(from, from.memberId, { simpleCode: abroad.memberNo, amount: 100, otp: "123456" }), 404);
    expectFailure(await transfer(abroad, abroad.memberId, { simpleCode: to.memberNo, amount: 100, otp: "123456" }), 404);
    await block(to, from);
    expectFailure(await transfer(from, from.memberId, { simpleCode: to.memberNo, amount: 100, otp: "123456" }), 404);
    expectFailure(await call("GET", `/private/core/wallet/transfers/${from.memberId}`, { as: to }), 403);
    expect(await mcoin(from.memberId)).toBe(3);
  });

  it("cannot be double-spent by racing transfers: the balance never goes below zero", async () => {
    const from = await member();
    const a = await member();
    const b = await member();
    await grantCoins(from, 3);
    const attempts = Array.from({ length: 8 }, (_, i) =>
      moveCoins(env, from, { toMemberId: i % 2 ? a.memberId : b.memberId, amount: 100, idempotencyKey: `race-${i}` }).then(
        () => "ok",
        (e: AppError) => e.entry.code,
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "409306")).toHaveLength(5);
    expect(await mcoin(from.memberId)).toBe(0);
    expect((await mcoin(a.memberId)) + (await mcoin(b.memberId))).toBe(3);
  });
});

describe("property: transfers never create or lose coins", () => {
  it("keeps the sum of balances constant and every balance non-negative over random transfer sequences", async () => {
    const people = [await member(), await member(), await member(), await member()];
    for (const [i, p] of people.entries()) await grantCoins(p, [5, 0, 12, 3][i]!);
    const balances = async () => Promise.all(people.map((p) => mcoin(p.memberId)));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ from: fc.nat(3), to: fc.nat(3), coins: fc.integer({ min: 1, max: 8 }), retry: fc.boolean(), key: fc.nat(5) }),
          { minLength: 1, maxLength: 12 },
        ),
        async (steps) => {
          run++;
          const before = await balances();
          const expected = [...before];
          const done = new Map<string, { from: number; to: number; coins: number }>();
          for (const step of steps) {
            if (step.from === step.to) continue;
            const key = `p${run}-${step.from}-${step.key}`;
            const send = () => moveCoins(env, people[step.from]!, { toMemberId: people[step.to]!.memberId, amount: step.coins * 100, idempotencyKey: key });
            const sends = step.retry ? [send(), send()] : [send()];
            const outcomes = await Promise.allSettled(sends);
            const previous = done.get(key);
            if (!previous && outcomes.some((o) => o.status === "fulfilled")) {
              // A new transfer happened exactly once.
              expected[step.from]! -= step.coins;
              expected[step.to]! += step.coins;
              done.set(key, step);
            }
            for (const o of outcomes) {
              if (o.status === "rejected") expect(["409306", "409307"]).toContain((o.reason as AppError).entry.code);
            }
          }
          const after = await balances();
          expect(after.reduce((x, y) => x + y, 0)).toBe(before.reduce((x, y) => x + y, 0));
          for (const value of after) expect(value).toBeGreaterThanOrEqual(0);
          expect(after).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});
