import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp } from "../support/client";
import worker from "../../worker/test-entry";
import { block, historyOf, master, masterOf, member } from "./market-support";

const join = (as: { headers: Record<string, string> } | null, masterMemberNo: unknown, project = "SMP") =>
  call("POST", `/private/sns/sub-members/${project}/join`, { as, body: { masterMemberNo } });
const free = (as: { headers: Record<string, string> } | null, simpleCode: unknown, project = "SMP") =>
  call("POST", `/private/sns/sub-members/${project}/free`, { as, body: { simpleCode } });
const sell = (as: { headers: Record<string, string> } | null, simpleCode: unknown) => call("POST", "/private/sns/game/market/slave", { as, body: { simpleCode } });

/** Invokes the worker entry's real `scheduled` handler (what the cron trigger calls) and waits for its work. */
async function runScheduled(at = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at, cron: "17 3 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("join a master", () => {
  it("joins, stores ownership and a history entry, and the master's list shows the sub-member", async () => {
    const boss = await master("SMP", { multiGender: 2 });
    const visitor = await member();
    const before = expectOk(await call("GET", `/private/sns/sub-members/SMP/${boss.memberNo}`, { as: visitor }));
    expect(before.viewer).toEqual({ isMaster: false, owned: false, canJoin: true, isSubmember: false });

    expect(expectOk(await join(visitor, boss.memberNo))).toEqual({ joined: true });
    expect(await masterOf(visitor)).toBe(boss.memberId);
    expect(await historyOf(visitor)).toEqual([{ parent: boss.memberId, event: "joined" }]);

    const list = expectOk(await call("GET", `/private/sns/sub-members/SMP/${boss.memberNo}`, { as: boss }));
    expect(list.master.simpleCode).toBe(boss.memberNo);
    expect(list.subMembers.map((s: any) => s.profile.simpleCode)).toEqual([visitor.memberNo]);
    expect(list.subMembers[0].profile.introduction).toBeTruthy();
    expect(list.viewer.isMaster).toBe(true);
    // A logged-out visitor sees the same list on the public profile.
    const open = expectOk(await call("GET", `/public/sns/sub-members/smp/${boss.memberNo}`));
    expect(open.subMembers).toHaveLength(1);
    expect(open.viewer).toBeNull();
    // The joined member now sees that they belong to this master.
    const mine = expectOk(await call("GET", `/private/sns/sub-members/SMP/${boss.memberNo}`, { as: visitor }));
    expect(mine.viewer).toMatchObject({ isSubmember: true, owned: true, canJoin: false });
  });

  it("refuses a member who is already owned with §8 'it seems you are owned by someone, contact your master'", async () => {
    const first = await master();
    const second = await master();
    const visitor = await member();
    expectOk(await join(visitor, first.memberNo));
    for (const target of [second, first]) {
      const body = expectFailure(await join(visitor, target.memberNo), 409, "409301");
      expect(body.returnMessage).toBe("it seems you are owned by someone, contact your master");
    }
    expect(await masterOf(visitor)).toBe(first.memberId);
    expect(await historyOf(visitor)).toHaveLength(1);
  });

  it("gives one master only when the same member joins two masters at once", async () => {
    const a = await master();
    const b = await master();
    const visitor = await member();
    const replies = await Promise.all([join(visitor, a.memberNo), join(visitor, b.memberNo), join(visitor, a.memberNo)]);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of replies.filter((r) => r.status !== 200)) expectFailure(r, 409, "409301");
    expect(await historyOf(visitor)).toHaveLength(1);
  });

  it("refuses wrong targets and actors: self, non-master, unknown, blocked, anonymous, other tenant, bad input", async () => {
    const boss = await master();
    const sub = await member();
    const visitor = await member();
    expectFailure(await join(boss, boss.memberNo), 400, "400301");
    expectFailure(await join(visitor, sub.memberNo), 409, "409302");
    expectFailure(await join(visitor, "99999999"), 404);
    expectFailure(await join(null, boss.memberNo), 401);
    const stranger = await signUp("ABC");
    expectFailure(await join(stranger, boss.memberNo), 404);
    expectFailure(await join(stranger, boss.memberNo, "ABC"), 404);
    for (const bad of ["abc", "", 12, null]) expectFailure(await join(visitor, bad), 400, "400000");
    expectFailure(await call("POST", `/private/sns/sub-members/SMP/join`, { as: visitor, body: "{oops" }), 400, "400002");
    // Blocked either way: the master does not exist for them.
    const blocked = await member();
    await block(boss, blocked);
    expectFailure(await join(blocked, boss.memberNo), 404);
    expectFailure(await call("GET", `/private/sns/sub-members/SMP/${boss.memberNo}`, { as: blocked }), 404);
    for (const m of [sub, visitor, stranger, blocked]) expect(await masterOf(m)).toBeNull();
  });
});

describe("hierarchy without cycles", () => {
  it("refuses a join that would make a loop, at any depth, and builds the tree and master chain", async () => {
    const top = await master("SMP", { multiGender: 2 });
    const middle = await master();
    const low = await master();
    const leaf = await member();
    expectOk(await join(middle, top.memberNo));
    expectOk(await join(low, middle.memberNo));
    expectOk(await join(leaf, low.memberNo));
    // top is free, but joining its own sub-tree would loop.
    expectFailure(await join(top, low.memberNo), 409, "409303");
    expectFailure(await join(top, middle.memberNo), 409, "409303");
    expect(await masterOf(top)).toBeNull();

    const tree = expectOk(await call("GET", `/private/sns/hierarchy/SMP/${top.memberNo}`, { as: leaf }));
    expect(tree.profile.simpleCode).toBe(top.memberNo);
    expect(tree.subNodes).toHaveLength(1);
    expect(tree.subNodes[0].profile.simpleCode).toBe(middle.memberNo);
    expect(tree.subNodes[0].subNodes[0].profile.simpleCode).toBe(low.memberNo);
    expect(tree.subNodes[0].subNodes[0].subNodes[0]).toEqual({ profile: expect.objectContaining({ simpleCode: leaf.memberNo }), subNodes: [] });
    const up = expectOk(await call("GET", `/private/sns/hierarchy/SMP/${leaf.memberNo}`, { as: top }));
    expect(up.masters.map((p: any) => p.simpleCode)).toEqual([low.memberNo, middle.memberNo, top.memberNo]);
  });

  it("lets only one of two masters joining each other at the same moment succeed", async () => {
    for (let round = 0; round < 3; round++) {
      const a = await master();
      const b = await master("SMP", { multiGender: 2 });
      const [ab, ba] = await Promise.all([join(a, b.memberNo), join(b, a.memberNo)]);
      expect([ab.status, ba.status].sort()).toEqual([200, 409]);
      const owners = [await masterOf(a), await masterOf(b)].filter(Boolean);
      expect(owners).toHaveLength(1);
    }
  });

  it("answers hierarchy history with parentProfile and dateAdd; anonymous 401, other tenant 404", async () => {
    const boss = await master();
    const sub = await member();
    expectOk(await join(sub, boss.memberNo));
    expectOk(await free(boss, sub.memberNo));
    const history = expectOk(await call("GET", `/private/sns/hierarchy/SMP/${sub.memberNo}/history`, { as: sub }));
    expect(history.map((h: any) => h.event)).toEqual(["freed", "joined"]);
    expect(history[0]).toMatchObject({ idHierarchyHistory: expect.any(Number), parentProfile: { simpleCode: boss.memberNo } });
    expect(history[0].dateAdd).toMatch(/Z$/);
    expectFailure(await call("GET", `/private/sns/hierarchy/SMP/${sub.memberNo}/history`), 401);
    const stranger = await signUp("ABC");
    expectFailure(await call("GET", `/private/sns/hierarchy/SMP/${sub.memberNo}/history`, { as: stranger }), 404);
    expectFailure(await call("GET", `/private/sns/hierarchy/ABC/${sub.memberNo}`, { as: stranger }), 404);
    expectFailure(await call("GET", `/private/sns/hierarchy/SMP/x1/history`, { as: sub }), 400);
  });
});

describe("free and sell (only the master)", () => {
  it("frees a sub-member; the sub-member, another member, another tenant and anonymous cannot", async () => {
    const boss = await master();
    const sub = await member();
    const other = await master();
    expectOk(await join(sub, boss.memberNo));
    // §4: irreversible by the visitor — the sub-member cannot free themselves.
    expectFailure(await free(sub, sub.memberNo), 403, "403301");
    expectFailure(await free(other, sub.memberNo), 403, "403301");
    expectFailure(await free(null, sub.memberNo), 401);
    const stranger = await signUp("ABC");
    expectFailure(await free(stranger, sub.memberNo, "ABC"), 404);
    expectFailure(await free(stranger, sub.memberNo), 404);
    expectFailure(await free(boss, "nope"), 400);
    expect(await masterOf(sub)).toBe(boss.memberId);

    expect(expectOk(await free(boss, sub.memberNo))).toEqual({ freed: true });
    expect(await masterOf(sub)).toBeNull();
    expect((await historyOf(sub)).map((h) => h.event)).toEqual(["joined", "freed"]);
    // Freeing again: not a sub-member any more.
    expectFailure(await free(boss, sub.memberNo), 404);
    // Free again means they may join someone else.
    expectOk(await join(sub, other.memberNo));
  });

  it("sells to the market; only the master may; the listing becomes a bidding card", async () => {
    const boss = await master();
    const sub = await member("SMP", { introduction: "Obedient and curious, looking for a patient owner." });
    const other = await master();
    expectOk(await join(sub, boss.memberNo));
    expectFailure(await sell(sub, sub.memberNo), 403, "403301");
    expectFailure(await sell(other, sub.memberNo), 403, "403301");
    expectFailure(await sell(null, sub.memberNo), 401);
    expectFailure(await sell(await signUp("ABC"), sub.memberNo), 404);
    expectFailure(await sell(boss, 123), 400);
    expect(await masterOf(sub)).toBe(boss.memberId);

    const sold = expectOk(await sell(boss, sub.memberNo));
    expect(sold.sold).toBe(true);
    expect(await masterOf(sub)).toBeNull();
    expect((await historyOf(sub)).map((h) => h.event)).toEqual(["joined", "sold"]);
    expectFailure(await sell(boss, sub.memberNo), 404);

    const cards = expectOk(await call("GET", "/private/sns/market/SMP/biddings?pageSize=50", { as: other }));
    const card = cards.find((c: any) => c.profile.simpleCode === sub.memberNo);
    expect(card).toMatchObject({ biddingCount: 0, bidders: [], seller: { simpleCode: boss.memberNo }, lastBidding: { profile: null } });
    expect(card.lastBidding.dueDate).toMatch(/Z$/);
    expectFailure(await call("GET", "/private/sns/market/SMP/biddings?pageSize=0", { as: other }), 400);
    expectFailure(await call("GET", "/private/sns/market/ABC/biddings", { as: other }), 404);
  });

  it("hides bidding cards without nickname or introduction (§5)", async () => {
    const boss = await master();
    const sub = await member("SMP", { introduction: "   " });
    expectOk(await join(sub, boss.memberNo));
    expectOk(await sell(boss, sub.memberNo));
    const cards = expectOk(await call("GET", "/private/sns/market/SMP/biddings?pageSize=100", { as: boss }));
    expect(cards.some((c: any) => c.profile.simpleCode === sub.memberNo)).toBe(false);
  });
});

describe("bidding loops", () => {
  it("takes bids from masters, counts them, stacks at most 5 bidders, and the last bidder wins when the countdown ends", async () => {
    const seller = await master();
    const sub = await member();
    expectOk(await join(sub, seller.memberNo));
    expectOk(await sell(seller, sub.memberNo));
    const submissive = await member();
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: submissive, body: { targetMemberNo: sub.memberNo } }), 403, "403302");
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: sub, body: { targetMemberNo: sub.memberNo } }), 400, "400302");
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: seller, body: { targetMemberNo: seller.memberNo } }), 400, "400302");
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: null, body: { targetMemberNo: sub.memberNo } }), 401);
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: seller, body: { targetMemberNo: "x" } }), 400);
    const notListed = await member();
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: seller, body: { targetMemberNo: notListed.memberNo } }), 409, "409304");

    const bidders = [];
    for (let i = 0; i < 6; i++) bidders.push(await master("SMP", { multiGender: i % 2 ? 1 : 2 }));
    let last: any;
    for (const bidder of bidders) {
      last = expectOk(await call("POST", "/private/sns/bidding-loops", { as: bidder, body: { targetMemberNo: sub.memberNo } }));
      expect(last.profile.simpleCode).toBe(bidder.memberNo);
      expect(last.target.simpleCode).toBe(sub.memberNo);
    }
    const lastBidder = bidders[5]!;
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: lastBidder, body: { targetMemberNo: sub.memberNo } }), 409, "409305");
    const again = expectOk(await call("GET", `/private/sns/bidding-loops/${last.idBiddingLoop}`, { as: seller }));
    expect(again).toEqual(last);
    expectFailure(await call("GET", `/private/sns/bidding-loops/${last.idBiddingLoop}`, { as: await signUp("ABC") }), 404);
    expectFailure(await call("GET", `/private/sns/bidding-loops/abc`, { as: seller }), 400);

    const cards = expectOk(await call("GET", "/private/sns/market/SMP/biddings?pageSize=100", { as: seller }));
    const card = cards.find((c: any) => c.profile.simpleCode === sub.memberNo);
    expect(card.biddingCount).toBe(6);
    expect(card.bidders).toHaveLength(5);
    expect(card.bidders[0].simpleCode).toBe(lastBidder.memberNo);
    expect(card.lastBidding.profile.simpleCode).toBe(lastBidder.memberNo);
    const profileCount = await env.DB.prepare("select bidding_count as n from profiles where member_id = ?").bind(sub.memberId).first<{ n: number }>();
    expect(profileCount?.n).toBe(6);

    // The countdown ends: the scheduled job hands the member to the last bidder.
    await env.DB.prepare("update market_listings set due_date = ? where member_id = ?").bind(Date.now() - 1000, sub.memberId).run();
    await runScheduled();
    expect(await masterOf(sub)).toBe(lastBidder.memberId);
    expect((await historyOf(sub)).map((h) => h.event)).toEqual(["joined", "sold", "won"]);
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: bidders[0]!, body: { targetMemberNo: sub.memberNo } }), 409, "409304");
  });
});

describe("ended auctions close when the market is read", () => {
  it("hands the member to the last bidder before listing cards, and closes unbid listings without an owner", async () => {
    const seller = await master();
    const bidder = await master("SMP", { multiGender: 2 });
    const [won, unsold] = [await member(), await member()];
    for (const sub of [won, unsold]) {
      expectOk(await join(sub, seller.memberNo));
      expectOk(await sell(seller, sub.memberNo));
    }
    expectOk(await call("POST", "/private/sns/bidding-loops", { as: bidder, body: { targetMemberNo: won.memberNo } }));
    await env.DB.prepare("update market_listings set due_date = ? where member_id in (?, ?)").bind(Date.now() - 1, won.memberId, unsold.memberId).run();
    const cards = expectOk(await call("GET", "/private/sns/market/SMP/biddings?pageSize=100", { as: seller }));
    expect(cards.some((c: any) => [won.memberNo, unsold.memberNo].includes(c.profile.simpleCode))).toBe(false);
    expect(await masterOf(won)).toBe(bidder.memberId);
    expect(await masterOf(unsold)).toBeNull();
    const left = await env.DB.prepare("select count(*) as n from market_listings where member_id in (?, ?)").bind(won.memberId, unsold.memberId).first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(expectOk(await call("GET", `/private/sns/sub-members/SMP/${bidder.memberNo}`, { as: won })).viewer.isSubmember).toBe(true);
  });
});

describe("monthly auto-free (scheduled handler)", () => {
  it("frees sub-members without a login for a month, with a history entry, and keeps active ones", async () => {
    const boss = await master();
    const idle = await member();
    const active = await member();
    expectOk(await join(idle, boss.memberNo));
    expectOk(await join(active, boss.memberNo));
    const longAgo = Date.now() - 31 * 86_400_000;
    await env.DB.batch([
      env.DB.prepare("update members set last_login_at = ? where id = ?").bind(longAgo, idle.memberId),
      env.DB.prepare("update profiles set last_access = ? where member_id = ?").bind(longAgo, idle.memberId),
      env.DB.prepare("update members set last_login_at = ? where id = ?").bind(Date.now() - 29 * 86_400_000, active.memberId),
    ]);

    await runScheduled();
    expect(await masterOf(idle)).toBeNull();
    expect(await masterOf(active)).toBe(boss.memberId);
    expect(await historyOf(idle)).toEqual([
      { parent: boss.memberId, event: "joined" },
      { parent: boss.memberId, event: "autoFreed" },
    ]);
    // Running again changes nothing (no duplicate history).
    await runScheduled();
    expect(await historyOf(idle)).toHaveLength(2);
    const list = expectOk(await call("GET", `/private/sns/sub-members/SMP/${boss.memberNo}`, { as: boss }));
    expect(list.subMembers.map((s: any) => s.profile.simpleCode)).toEqual([active.memberNo]);
  });
});

describe("nickname search and hot-search keywords", () => {
  it("counts real searches once per member per day, ignores searches that find nobody, and ranks keywords", async () => {
    const tag = `Zeph${Date.now().toString(36)}`;
    await member("SMP", { nickname: `${tag} Rope` });
    const a = await member();
    const b = await member();
    const found = expectOk(await call("GET", `/private/sns/search/SMP?keyword=${encodeURIComponent(tag.toLowerCase())}`, { as: a }));
    expect(found.map((p: any) => p.nickname)).toEqual([`${tag} Rope`]);
    expectOk(await call("GET", `/private/sns/search/SMP?keyword=${encodeURIComponent(tag)}`, { as: a }));
    expectOk(await call("GET", `/private/sns/search/SMP?keyword=${encodeURIComponent(` ${tag.toUpperCase()} `)}`, { as: b }));
    expect(expectOk(await call("GET", `/private/sns/search/SMP?keyword=nobody-${tag}`, { as: a }))).toEqual([]);
    // README "Hot searches need several members": listed from the third distinct member of the day.
    expectOk(await call("GET", `/private/sns/search/SMP?keyword=${encodeURIComponent(tag)}`, { as: await member() }));

    const hot = expectOk(await call("GET", "/private/sns/search/popular-keyword/smp?pageSize=30", { as: a }));
    const entry = hot.find((k: any) => k.keyword === tag.toLowerCase());
    expect(entry).toEqual({ keyword: tag.toLowerCase(), searchCount: 3 });
    expect(hot.some((k: any) => k.keyword.startsWith("nobody-"))).toBe(false);

    expectFailure(await call("GET", "/private/sns/search/SMP?keyword=", { as: a }), 400);
    expectFailure(await call("GET", "/private/sns/search/SMP?keyword=x"), 401);
    expectFailure(await call("GET", "/private/sns/search/popular-keyword/ABC", { as: a }), 404);
    expectFailure(await call("GET", "/private/sns/search/popular-keyword/ABCD", { as: a }), 400);
  });

  it("never finds a member blocked either way", async () => {
    const tag = `Quill${Date.now().toString(36)}`;
    const target = await member("SMP", { nickname: `${tag} Knot` });
    const searcher = await member();
    await block(target, searcher);
    expect(expectOk(await call("GET", `/private/sns/search/SMP?keyword=${tag}`, { as: searcher }))).toEqual([]);
  });
});
