import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../worker/db/client";
import { coinAwardStatements } from "../../worker/features/coins/coin-awards";
import { call, expectFailure, expectOk, signUp } from "../support/client";
import { master, mcoin, member } from "./market-support";

const pvs = (as: { headers: Record<string, string> } | null, memberId: string) => call("GET", `/private/core/pvs/${memberId}`, { as });

describe("GET /core/pvs/{memberId} (coin info from the ledger)", () => {
  it("answers {scoin, mcoin} for the caller; another member 403, anonymous 401, other tenant 403", async () => {
    const m = await signUp();
    expect(expectOk(await pvs(m, m.memberId))).toEqual({ scoin: 0, mcoin: 0 });
    const other = await signUp();
    expectFailure(await pvs(other, m.memberId), 403);
    expectFailure(await pvs(null, m.memberId), 401);
    expectFailure(await pvs(await signUp("ABC"), m.memberId), 403);
  });
});

describe("M coin awards (§9): exactly once, master's share once", () => {
  it("counts an award once under concurrent retries, and pays the owner's master once", async () => {
    const boss = await master();
    const sub = await member();
    expectOk(await call("POST", "/private/sns/sub-members/SMP/join", { as: sub, body: { masterMemberNo: boss.memberNo } }));
    const db = getDb(env);
    // Ten racing retries of the same award (e.g. the same reply received twice, or a client retry).
    await Promise.all(
      Array.from({ length: 10 }, () => db.batch(coinAwardStatements(db, { projectCode: "SMP", memberId: sub.memberId, reason: "replyReceived", sourceKey: "post:41:replier:x" }) as never)),
    );
    expect(expectOk(await pvs(sub, sub.memberId)).mcoin).toBe(1);
    expect(expectOk(await pvs(boss, boss.memberId)).mcoin).toBe(1);

    // Another source counts again; a photo rating is its own reason.
    await Promise.all([
      db.batch(coinAwardStatements(db, { projectCode: "SMP", memberId: sub.memberId, reason: "replyReceived", sourceKey: "post:42:replier:x" }) as never),
      db.batch(coinAwardStatements(db, { projectCode: "SMP", memberId: sub.memberId, reason: "photoRated", sourceKey: "banner:7:rater:y" }) as never),
      db.batch(coinAwardStatements(db, { projectCode: "SMP", memberId: sub.memberId, reason: "photoRated", sourceKey: "banner:7:rater:y" }) as never),
    ]);
    expect(await mcoin(sub.memberId)).toBe(3);
    expect(await mcoin(boss.memberId)).toBe(3);
    const rows = await env.DB.prepare("select count(*) as n from coin_ledger where member_id = ?").bind(boss.memberId).first<{ n: number }>();
    expect(rows?.n).toBe(3);
  });

  it("rolls the award back with the action when the action fails (same batch)", async () => {
    const m = await member();
    const db = getDb(env);
    await expect(
      db.batch([
        ...coinAwardStatements(db, { projectCode: "SMP", memberId: m.memberId, reason: "replyReceived", sourceKey: "post:rollback" }),
        // The action itself violates a constraint: nothing of the batch may stay.
        db.insert((await import("../../worker/db/schema")).submembers).values({ memberId: m.memberId, projectCode: "SMP", masterMemberId: null as never, joinedAt: 1 }),
      ] as never),
    ).rejects.toThrow();
    expect(await mcoin(m.memberId)).toBe(0);
  });

  it("pays no master's share when the member has no master", async () => {
    const m = await member();
    const db = getDb(env);
    await db.batch(coinAwardStatements(db, { projectCode: "SMP", memberId: m.memberId, reason: "photoRated", sourceKey: "banner:1:rater:z" }) as never);
    expect(await mcoin(m.memberId)).toBe(1);
    const master = await env.DB.prepare("select count(*) as n from coin_ledger where source_key like ?").bind(`${m.memberId}:%`).first<{ n: number }>();
    expect(master?.n).toBe(0);
  });
});
