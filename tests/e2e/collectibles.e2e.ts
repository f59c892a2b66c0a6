import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, avatarJpeg, baseUrl, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localSql, type Account } from "./support/local-api";

// README Decisions "Collectibles and the daily lottery": mint from one's own photo, list it, another member buys it
// (gas shown before confirming), and enters the daily lottery — at phone size.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A photo on the member's profile, uploaded and added through the API as My profile does. */
async function addPhoto(m: Account) {
  const form = new FormData();
  form.set("type", "photo");
  form.set("file", new Blob([new Uint8Array(avatarJpeg(40, 200))], { type: "image/jpeg" }), "photo.jpg");
  const upload = await fetch(`${baseUrl()}/api/v7/private/core/files/SMP/${m.memberId}`, { method: "POST", headers: m.headers, body: form });
  const up = (await upload.json()) as { returnCode: string; info: { url: string; width: number; height: number } };
  expect(up.returnCode).toBe("000000");
  const banner = await apiCall(m, "POST", `/core/banners/${m.memberId}`, { image: up.info.url, pickable: true, width: up.info.width, height: up.info.height });
  expect(banner.body.returnCode).toBe("000000");
}

/** A qualifying avatar, uploaded through the API as My profile does (the lottery asks for one). */
async function uploadAvatar(m: Account) {
  const form = new FormData();
  form.set("type", "avatar");
  form.set("file", new Blob([new Uint8Array(avatarJpeg(120, 200))], { type: "image/jpeg" }), "avatar.jpg");
  const upload = await fetch(`${baseUrl()}/api/v7/private/core/files/SMP/${m.memberId}`, { method: "POST", headers: m.headers, body: form });
  const reply = (await upload.json()) as { returnCode: string; info?: { qualify: boolean } };
  expect(reply).toMatchObject({ returnCode: "000000", info: { qualify: true } });
}

/** M coins straight into this run's local ledger (a balance to spend). */
function grantCoins(m: Account, coins: number) {
  localSql(`insert into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values ('SMP', '${m.memberId}', 'mcoin', ${coins}, 'e2eGrant', 'e2e-${m.memberId}', ${Date.now()})`);
}

describe("collectibles and the daily lottery at phone size", () => {
  it("a member mints an edition from their photo and lists a copy; another buys it after seeing the gas, then enters the lottery", async () => {
    const [seller, buyer] = [await apiSignUp(), await apiSignUp()];
    await addPhoto(seller);
    grantCoins(seller, 3);
    grantCoins(buyer, 10);

    // The seller reaches Collectibles from My profile, mints 5 copies (gas shown first) and lists No. 5 for 3 coins.
    const sellerSession = await newPage(browser, { viewport: "phone" });
    const s = sellerSession.page;
    await loginThroughPage(s, seller.email, seller.password);
    await gotoHydrated(s, "/smp/profile");
    await s.getByRole("link", { name: "Collectibles" }).click();
    await s.waitForURL("**/smp/collectibles");
    await s.waitForSelector("html[data-hydrated]");
    const mint = s.getByRole("region", { name: "Mint from a photo" });
    await mint.getByRole("button", { name: "Photo 1" }).click();
    await mint.getByLabel("Copies in the edition (1–100)").fill("5");
    await see(mint, "Gas for minting: 1 M coin(s), paid once.");
    expect(await hasHorizontalOverflow(s)).toBe(false);
    await screenshot(s, "collectibles-00-mint");
    await mint.getByRole("button", { name: "Mint 5 copies" }).click();
    await see(s.locator(".toast"), "Minted 5 numbered copies");
    const mine = s.getByRole("region", { name: "Mine" });
    const fifth = mine.getByRole("listitem").filter({ hasText: "No. 5 of 5" });
    await fifth.waitFor();
    await fifth.getByLabel("Price in M coins").fill("3");
    await fifth.getByRole("button", { name: "List for sale" }).click();
    await see(fifth, "For sale at 3 M coins");
    expect(await hasHorizontalOverflow(s)).toBe(false);
    await screenshot(s, "collectibles-01-listed");

    // The buyer sees the listing (the photo's public rendition), the price + gas = total, and confirms.
    const buyerSession = await newPage(browser, { viewport: "phone" });
    const b = buyerSession.page;
    await loginThroughPage(b, buyer.email, buyer.password);
    await gotoHydrated(b, "/smp/collectibles");
    const market = b.getByRole("region", { name: "For sale" });
    const card = market.getByRole("listitem").filter({ hasText: `owned by ${seller.memberNo}` });
    const image = card.getByRole("img", { name: "No. 5 of 5" });
    expect(await image.getAttribute("src")).toMatch(/\/media\/.+/);
    await card.getByRole("button", { name: "Buy No. 5 of 5 for 3 M coins" }).click();
    await see(card, "Price 3 M coins + gas 1 M coin = 4 M coins");
    await screenshot(b, "collectibles-02-confirm");
    await card.getByRole("button", { name: "Confirm purchase" }).click();
    await see(b.locator(".toast"), "Bought No. 5 of 5");
    await see(b.getByRole("region", { name: "Mine" }), "No. 5 of 5");
    await see(b.getByRole("region", { name: "History" }), `Bought No. 5 of 5 from ${seller.memberNo} for 3 M coins`);
    expect(await hasHorizontalOverflow(b)).toBe(false);
    await screenshot(b, "collectibles-03-bought");
    const coins = await apiCall(buyer, "GET", `/core/pvs/${buyer.memberId}`);
    expect(coins.body.info.mcoin).toBe(6);
    const sellerCoins = await apiCall(seller, "GET", `/core/pvs/${seller.memberId}`);
    expect(sellerCoins.body.info.mcoin).toBe(5);

    // The daily lottery, from the collectibles page: today's commitment, one free entry.
    await b.getByRole("link", { name: "Daily lottery" }).click();
    await b.waitForURL("**/smp/lottery");
    await b.waitForSelector("html[data-hydrated]");
    // A new account without an approved avatar is told what it takes, with a way to My profile, and holds no ticket.
    await see(b.getByTestId("lottery-eligibility"), "The draw is open to members whose avatar an operator has approved.");
    expect(await b.getByRole("button", { name: "Enter today's draw" }).count()).toBe(0);
    await screenshot(b, "collectibles-03-lottery-not-yet");
    // With an approved avatar, the account's age is what remains; eight days later (README Decisions "Collectibles
    // and the daily lottery") it may enter.
    await uploadAvatar(buyer);
    await gotoHydrated(b, "/smp/lottery");
    await see(b.getByTestId("lottery-eligibility"), "The draw is open to accounts at least 7 days old.");
    localSql(`update members set created_at = created_at - 8 * 86400000 where id = '${buyer.memberId}'`);
    await gotoHydrated(b, "/smp/lottery");
    const commitment = (await b.getByTestId("lottery-commitment").textContent())?.trim();
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);
    await b.getByRole("button", { name: "Enter today's draw" }).click();
    await see(b.getByRole("status"), "You are in today's draw");
    const today = await apiCall(buyer, "GET", "/sns/lottery/SMP");
    expect(today.body.info.today).toMatchObject({ entered: true, commitment });
    expect(await hasHorizontalOverflow(b)).toBe(false);
    await screenshot(b, "collectibles-04-lottery");

    expect(sellerSession.consoleErrors).toEqual([]);
    expect(buyerSession.consoleErrors).toEqual([]);
    await sellerSession.context.close();
    await buyerSession.context.close();
  }, 240_000); // two members, several pages and a D1 write through wrangler: longer than one default journey
});
