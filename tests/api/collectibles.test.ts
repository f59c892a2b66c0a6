import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COLLECTIBLE_PATHS as P, DAILY_BUY_AMOUNT_MAX, MINT_GAS_AMOUNT, TRADE_GAS_AMOUNT } from "../../worker/contract/collectibles";
import { call, expectFailure, expectOk, type Member } from "../support/client";
import { block, grantCoins, mcoin, member } from "./market-support";

/**
 * Collectibles (README Decisions "Collectibles and the daily lottery"): minting from one's own photo, listing, buying;
 * atomic and idempotent trades, blocks and tenants, and what image each viewer gets.
 */
let seq = 0;
const api = (method: string, as: Member, path: string, body?: unknown) => call(method, `/private${path}`, { as, body });

/** A photo stored the way the banner API stores one (original and blurred rendition under their own keys). */
async function photo(m: Member) {
  const tag = `${Date.now().toString(36)}${++seq}`;
  const image = `/media/${m.projectCode}/${m.memberNo}/photo/original-${tag}.jpg`;
  const blurImage = `/media/${m.projectCode}/${m.memberNo}/blur/rendition-${tag}.jpg`;
  const row = await env.DB.prepare(
    "insert into banners (project_code, member_id, member_no, image, pickable, width, height, blur_image, created_at) values (?, ?, ?, ?, 1, 300, 200, ?, ?) returning id_banner as id",
  )
    .bind(m.projectCode, m.memberId, m.memberNo, image, blurImage, Date.now())
    .first<{ id: number }>();
  return { idBanner: row!.id, image, blurImage };
}

const rid = () => `req-${Date.now().toString(36)}-${++seq}`;

async function minted(creator: Member, editionSize = 3) {
  await grantCoins(creator, MINT_GAS_AMOUNT / 100);
  const p = await photo(creator);
  const result = expectOk(await api("POST", creator, P.mint(creator.projectCode), { idBanner: p.idBanner, editionSize, requestId: rid() }));
  return { ...p, result, editions: result.editions as { idEdition: number; serial: number }[] };
}

async function listedEdition(seller: Member, amount = 300) {
  const m = await minted(seller);
  const idEdition = m.editions[0]!.idEdition;
  expectOk(await api("PUT", seller, P.listing(seller.projectCode, idEdition), { amount }));
  return { ...m, idEdition };
}

const owner = async (idEdition: number) =>
  (await env.DB.prepare("select owner_member_id as o from collectible_editions where id_edition = ?").bind(idEdition).first<{ o: string }>())!.o;
const tradeCount = async (idEdition: number) =>
  (await env.DB.prepare("select count(*) as n from collectible_trades where id_edition = ?").bind(idEdition).first<{ n: number }>())!.n;

describe("minting a numbered edition from one's own photo", () => {
  it("shows the gas first, mints editions 1..N owned by the creator, and charges the gas once per request id", async () => {
    const creator = await member();
    expect(expectOk(await api("GET", creator, P.gas("SMP")))).toEqual({ mintGas: MINT_GAS_AMOUNT, tradeGas: TRADE_GAS_AMOUNT, mintGasCoins: 1, tradeGasCoins: 1 });
    await grantCoins(creator, 5);
    const p = await photo(creator);
    const body = { idBanner: p.idBanner, editionSize: 4, requestId: rid() };
    const first = expectOk(await api("POST", creator, P.mint("SMP"), body));
    expect(first).toMatchObject({ editionSize: 4, gas: MINT_GAS_AMOUNT, replayed: false, balance: { mcoin: 4 } });
    expect(first.editions.map((e: { serial: number }) => e.serial)).toEqual([1, 2, 3, 4]);
    expect(first.editions[0]).toMatchObject({ mine: true, image: p.image, amount: null, creator: { simpleCode: creator.memberNo } });
    // A retry (double tap, lost answer) replays; gas is paid once.
    const again = expectOk(await api("POST", creator, P.mint("SMP"), body));
    expect(again).toMatchObject({ idCollectible: first.idCollectible, replayed: true });
    expect(await mcoin(creator.memberId)).toBe(4);
    expect(expectOk(await api("GET", creator, P.mine("SMP")))).toHaveLength(4);
    // The same request id for another mint, or the same photo again: refused, nothing charged.
    expectFailure(await api("POST", creator, P.mint("SMP"), { ...body, editionSize: 2 }), 409, "409394");
    expectFailure(await api("POST", creator, P.mint("SMP"), { ...body, requestId: rid() }), 409, "409391");
    expect(await mcoin(creator.memberId)).toBe(4);
    const history = expectOk(await api("GET", creator, P.history("SMP")));
    expect(history[0]).toMatchObject({ kind: "mint", editionSize: 4, gas: MINT_GAS_AMOUNT });
  });

  it("refuses someone else's photo (404), a short balance (409306) and bad input (4xx) — and stores nothing", async () => {
    const creator = await member();
    const other = await member();
    const theirs = await photo(other);
    await grantCoins(creator, 1);
    expectFailure(await api("POST", creator, P.mint("SMP"), { idBanner: theirs.idBanner, editionSize: 2, requestId: rid() }), 404, "404501");
    const mine = await photo(creator);
    for (const bad of [{}, { idBanner: mine.idBanner, editionSize: 0, requestId: rid() }, { idBanner: mine.idBanner, editionSize: 101, requestId: rid() }, { idBanner: mine.idBanner, editionSize: 2, requestId: "x" }, { idBanner: "one", editionSize: 2, requestId: rid() }]) {
      expectFailure(await api("POST", creator, P.mint("SMP"), bad), 400);
    }
    const broke = await member();
    const brokePhoto = await photo(broke);
    expectFailure(await api("POST", broke, P.mint("SMP"), { idBanner: brokePhoto.idBanner, editionSize: 2, requestId: rid() }), 409, "409306");
    const n = await env.DB.prepare("select count(*) as n from collectibles where creator_member_id in (?, ?)").bind(creator.memberId, broke.memberId).first<{ n: number }>();
    expect(n!.n).toBe(0);
    expect(await mcoin(broke.memberId)).toBe(0);
  });
});

describe("listing and buying an edition", () => {
  it("moves the edition and the coins (price to the seller, price + gas from the buyer); a retry with the same request id is idempotent", async () => {
    const seller = await member();
    const buyer = await member();
    const { idEdition, image, blurImage } = await listedEdition(seller, 300);
    await grantCoins(buyer, 10);
    const listed = expectOk(await api("GET", buyer, `${P.listed("SMP")}?pageSize=100`));
    const card = listed.find((e: { idEdition: number }) => e.idEdition === idEdition);
    // Another member gets the photo's public rendition, never the original.
    expect(card).toMatchObject({ amount: 300, coins: 3, mine: false, image: blurImage, owner: { simpleCode: seller.memberNo } });
    expect(JSON.stringify(listed)).not.toContain(image);

    const body = { amount: 300, requestId: rid() };
    const bought = expectOk(await api("POST", buyer, P.buy("SMP", idEdition), body));
    expect(bought).toMatchObject({ amount: 300, gas: TRADE_GAS_AMOUNT, replayed: false, balance: { mcoin: 6 }, edition: { mine: true, amount: null } });
    expect(await owner(idEdition)).toBe(buyer.memberId);
    expect(await mcoin(seller.memberId)).toBe(3);
    const replay = expectOk(await api("POST", buyer, P.buy("SMP", idEdition), body));
    expect(replay).toMatchObject({ replayed: true, balance: { mcoin: 6 } });
    expect(await mcoin(seller.memberId)).toBe(3);
    expect(await tradeCount(idEdition)).toBe(1);
    // The same request id for another purchase is refused.
    expectFailure(await api("POST", buyer, P.buy("SMP", idEdition), { ...body, amount: 500 }), 409, "409394");

    expect(expectOk(await api("GET", buyer, P.history("SMP")))[0]).toMatchObject({ kind: "bought", amount: 300, gas: TRADE_GAS_AMOUNT, counterparty: { simpleCode: seller.memberNo } });
    expect(expectOk(await api("GET", seller, P.history("SMP")))[0]).toMatchObject({ kind: "sold", amount: 300, gas: 0, counterparty: { simpleCode: buyer.memberNo } });
    const detail = expectOk(await api("GET", buyer, P.edition("SMP", idEdition)));
    expect(detail.trades).toEqual([expect.objectContaining({ amount: 300, seller: expect.objectContaining({ simpleCode: seller.memberNo }), buyer: expect.objectContaining({ simpleCode: buyer.memberNo }) })]);
    // Sold: off the market; the seller can no longer list it.
    expect(expectOk(await api("GET", buyer, `${P.listed("SMP")}?pageSize=100`)).some((e: { idEdition: number }) => e.idEdition === idEdition)).toBe(false);
    expectFailure(await api("PUT", seller, P.listing("SMP", idEdition), { amount: 100 }), 404);
  });

  it("concurrent purchases of one edition: exactly one succeeds, the others are refused and pay nothing", async () => {
    const seller = await member();
    const { idEdition } = await listedEdition(seller, 200);
    const buyers = await Promise.all([member(), member(), member(), member(), member()]);
    for (const b of buyers) await grantCoins(b, 10);
    const replies = await Promise.all(buyers.map((b) => api("POST", b, P.buy("SMP", idEdition), { amount: 200, requestId: rid() })));
    const winners = replies.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 200)) expectFailure(r, 409, "409392");
    expect(await tradeCount(idEdition)).toBe(1);
    const balances = await Promise.all(buyers.map((b) => mcoin(b.memberId)));
    expect(balances.sort((x, y) => x - y)).toEqual([7, 10, 10, 10, 10]);
    expect(await mcoin(seller.memberId)).toBe(2);
  });

  it("the balance check holds in SQL: one buyer racing for two editions with coins for one ends with one, never below zero", async () => {
    const seller = await member();
    const a = await listedEdition(seller, 300);
    const b = await listedEdition(seller, 300);
    const buyer = await member();
    await grantCoins(buyer, 4); // one purchase: 3 + 1 gas
    const replies = await Promise.all([
      api("POST", buyer, P.buy("SMP", a.idEdition), { amount: 300, requestId: rid() }),
      api("POST", buyer, P.buy("SMP", b.idEdition), { amount: 300, requestId: rid() }),
    ]);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expectFailure(replies.find((r) => r.status !== 200)!, 409, "409306");
    expect(await mcoin(buyer.memberId)).toBe(0);
  });

  it("refuses a short balance, a changed price, one's own edition, part coins and an unlisted edition — moving nothing", async () => {
    const seller = await member();
    const buyer = await member();
    const { idEdition } = await listedEdition(seller, 300);
    await grantCoins(buyer, 3); // price 3 but gas makes 4
    expectFailure(await api("POST", buyer, P.buy("SMP", idEdition), { amount: 300, requestId: rid() }), 409, "409306");
    expectFailure(await api("POST", buyer, P.buy("SMP", idEdition), { amount: 200, requestId: rid() }), 409, "409393");
    expectFailure(await api("POST", buyer, P.buy("SMP", idEdition), { amount: 250, requestId: rid() }), 400, "400304");
    expectFailure(await api("PUT", seller, P.listing("SMP", idEdition), { amount: 150 }), 400, "400304");
    expectFailure(await api("POST", seller, P.buy("SMP", idEdition), { amount: 300, requestId: rid() }), 400, "400391");
    expectOk(await api("DELETE", seller, P.listing("SMP", idEdition)));
    await grantCoins(buyer, 10);
    expectFailure(await api("POST", buyer, P.buy("SMP", idEdition), { amount: 300, requestId: rid() }), 409, "409392");
    // Someone else's edition cannot be listed or unlisted (not found), and a bad id is not found either.
    expectFailure(await api("PUT", buyer, P.listing("SMP", idEdition), { amount: 100 }), 404);
    expectFailure(await api("DELETE", buyer, P.listing("SMP", idEdition)), 404);
    expectFailure(await api("GET", buyer, `/sns/collectibles/SMP/editions/abc`), 404);
    expect(await owner(idEdition)).toBe(seller.memberId);
    expect(await mcoin(buyer.memberId)).toBe(13);
    expect(await tradeCount(idEdition)).toBe(0);
  });
});

describe("who may not see or trade", () => {
  it("a blocked pair cannot trade, either way: the listing is not found and nothing moves", async () => {
    for (const direction of ["sellerBlocks", "buyerBlocks"] as const) {
      const seller = await member();
      const buyer = await member();
      const { idEdition } = await listedEdition(seller, 100);
      await grantCoins(buyer, 10);
      if (direction === "sellerBlocks") await block(seller, buyer);
      else await block(buyer, seller);
      expect(expectOk(await api("GET", buyer, `${P.listed("SMP")}?pageSize=100`)).some((e: { idEdition: number }) => e.idEdition === idEdition)).toBe(false);
      expectFailure(await api("GET", buyer, P.edition("SMP", idEdition)), 404);
      expectFailure(await api("POST", buyer, P.buy("SMP", idEdition), { amount: 100, requestId: rid() }), 404);
      expect(await owner(idEdition)).toBe(seller.memberId);
      expect(await mcoin(buyer.memberId)).toBe(10);
    }
  });

  it("another tenant's collectible is not found, and another tenant's path is not found", async () => {
    const seller = await member();
    const { idEdition } = await listedEdition(seller, 100);
    const foreign = await member("ABC");
    await grantCoins(foreign, 10);
    expectFailure(await api("GET", foreign, P.edition("ABC", idEdition)), 404);
    expectFailure(await api("POST", foreign, P.buy("ABC", idEdition), { amount: 100, requestId: rid() }), 404);
    expectFailure(await api("GET", foreign, P.listed("SMP")), 404);
    expectFailure(await api("POST", foreign, P.buy("SMP", idEdition), { amount: 100, requestId: rid() }), 404);
    expect(expectOk(await api("GET", foreign, `${P.listed("ABC")}?pageSize=100`)).some((e: { idEdition: number }) => e.idEdition === idEdition)).toBe(false);
    expect(await mcoin(foreign.memberId)).toBe(10);
  });

  it("a collectible from a photo the viewer may not see shows nothing revealing: closed creator or deleted photo → no image", async () => {
    const creator = await member();
    const buyer = await member();
    const { idEdition, idBanner, image, blurImage } = await listedEdition(creator, 100);
    expect(expectOk(await api("GET", buyer, P.edition("SMP", idEdition))).image).toBe(blurImage);
    expectOk(await call("PATCH", `/private/core/profiles/${creator.memberId}`, { as: creator, body: { closed: true } }));
    const closed = expectOk(await api("GET", buyer, P.edition("SMP", idEdition)));
    expect(closed.image).toBe("");
    expect(JSON.stringify(closed)).not.toContain(blurImage.split("/").pop()!);
    expect(JSON.stringify(closed)).not.toContain(image.split("/").pop()!);
    // The creator still sees their own photo.
    expect(expectOk(await api("GET", creator, P.edition("SMP", idEdition))).image).toBe(image);
    expectOk(await call("PATCH", `/private/core/profiles/${creator.memberId}`, { as: creator, body: { closed: false } }));
    expectOk(await call("DELETE", `/private/core/banners/${idBanner}/${creator.memberId}`, { as: creator }));
    expect(expectOk(await api("GET", buyer, P.edition("SMP", idEdition))).image).toBe("");
  });

  it("a suspended or deleted seller's listing leaves the market and cannot be bought", async () => {
    const seller = await member();
    const buyer = await member();
    const { idEdition } = await listedEdition(seller, 100);
    await grantCoins(buyer, 10);
    await env.DB.prepare("update members set status = 'suspended' where id = ?").bind(seller.memberId).run();
    expect(expectOk(await api("GET", buyer, `${P.listed("SMP")}?pageSize=100`)).some((e: { idEdition: number }) => e.idEdition === idEdition)).toBe(false);
    expectFailure(await api("POST", buyer, P.buy("SMP", idEdition), { amount: 100, requestId: rid() }), 409, "409392");
    expect(await owner(idEdition)).toBe(seller.memberId);
    expect(await mcoin(buyer.memberId)).toBe(10);
  });

  it("needs a session", async () => {
    expectFailure(await call("GET", `/private${P.listed("SMP")}`), 401);
    expectFailure(await call("POST", `/private${P.mint("SMP")}`, { body: { idBanner: 1, editionSize: 1, requestId: rid() } }), 401);
  });
});

describe("what a purchase can move and tell", () => {
  it("a member spends at most DAILY_BUY_AMOUNT_MAX a day on collectibles; a suspended member buys nothing", async () => {
    const thief = await member();
    const victim = await member();
    await grantCoins(victim, 500);
    const { idEdition } = await listedEdition(thief, DAILY_BUY_AMOUNT_MAX + 100);
    expectFailure(await api("POST", victim, P.buy("SMP", idEdition), { amount: DAILY_BUY_AMOUNT_MAX + 100, requestId: rid() }), 409, "409396");
    const small = await listedEdition(thief, DAILY_BUY_AMOUNT_MAX - 100);
    expectOk(await api("POST", victim, P.buy("SMP", small.idEdition), { amount: DAILY_BUY_AMOUNT_MAX - 100, requestId: rid() }));
    const more = await listedEdition(thief, 200);
    expectFailure(await api("POST", victim, P.buy("SMP", more.idEdition), { amount: 200, requestId: rid() }), 409, "409396");
    expect(await mcoin(victim.memberId)).toBe(500 - (DAILY_BUY_AMOUNT_MAX - 100) / 100 - TRADE_GAS_AMOUNT / 100);

    const suspended = await member();
    await grantCoins(suspended, 10);
    await env.DB.prepare("update members set status = 'suspended' where id = ?").bind(suspended.memberId).run();
    const reply = await api("POST", suspended, P.buy("SMP", more.idEdition), { amount: 200, requestId: rid() });
    expect(reply.body.returnCode).not.toBe("000000");
    expect(await owner(more.idEdition)).toBe(thief.memberId);
  });

  it("names a copy's holder only while it is for sale, and a trade's parties only to those two", async () => {
    const seller = await member();
    const buyer = await member();
    const onlooker = await member();
    await grantCoins(buyer, 10);
    const { idEdition } = await listedEdition(seller, 300);
    expectOk(await api("POST", buyer, P.buy("SMP", idEdition), { amount: 300, requestId: rid() }));
    const seen = expectOk(await api("GET", onlooker, P.edition("SMP", idEdition)));
    expect(seen.owner).toBeNull();
    expect(seen.trades).toEqual([expect.objectContaining({ amount: 300, seller: null, buyer: null })]);
    expect(JSON.stringify(seen)).not.toContain(buyer.memberNo);
    const own = expectOk(await api("GET", buyer, P.edition("SMP", idEdition)));
    expect(own.owner).toMatchObject({ simpleCode: buyer.memberNo });
    expect(own.trades[0]).toMatchObject({ seller: { simpleCode: seller.memberNo }, buyer: { simpleCode: buyer.memberNo } });
  });
});
