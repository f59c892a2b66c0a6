import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localRows } from "./support/local-api";

/**
 * Card payments (README Decisions "Card payments") at phone size: the member reaches the wallet from navigation, buys
 * a package on the provider's hosted page (the local fake, tests/e2e/support/fake-stripe-server.ts), comes back and
 * sees the coins once the signed webhook has reached the server; then saves a card and removes it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("card payments journey", () => {
  it("buys M coins by card and sees them credited after the webhook; saves and removes a card", async () => {
    const member = await apiSignUp();
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, member.email, member.password);

    // From navigation: home's M coin tile → market → the wallet.
    await page.getByRole("link", { name: /M coin/ }).first().click();
    await page.waitForURL("**/smp/market");
    await page.waitForSelector("html[data-hydrated]");
    await page.getByRole("link", { name: "Wallet: buy coins, cards" }).click();
    await page.waitForURL("**/smp/wallet");
    await see(page.getByRole("heading", { level: 1 }), "Wallet");
    await see(page.locator(".wallet-page-balance"), "0 M coins");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "card-payments-01-wallet-phone");

    // Buy the 50-coin package: the hosted page, pay, back to the wallet.
    await page.getByRole("button", { name: /^Buy 50 M coins for / }).click();
    await page.waitForURL(/127\.0\.0\.1:\d+\/pay\/cs_test_/);
    await screenshot(page, "card-payments-02-hosted-checkout-phone");
    await page.getByRole("button", { name: "Pay 12.00 USD" }).click();
    await page.waitForURL("**/smp/wallet**");
    await page.waitForSelector("html[data-hydrated]");
    await see(page.getByRole("status"), "Payment confirmed: 50 M coins credited.", 20_000);
    await see(page.locator(".wallet-page-balance"), "50 M coins");
    await see(page.getByRole("list").filter({ hasText: "paid" }), "50 M coins");
    await screenshot(page, "card-payments-03-credited-phone");
    // The server's word: one ledger row for the charge, and the balance from the API.
    expect(localRows(`select amount, reason from coin_ledger where member_id = '${member.memberId}'`)).toEqual([{ amount: 50, reason: "cardPurchase" }]);
    expect((await apiCall(member, "GET", `/core/pvs/${member.memberId}`)).body.info.mcoin).toBe(50);

    // Card binding: save a card on the hosted page, see it listed, remove it.
    await see(page.getByRole("region", { name: "Saved cards" }).or(page.locator("section").filter({ hasText: "Saved cards" })), "No saved cards.");
    await page.getByRole("button", { name: "Save a card" }).click();
    await page.waitForURL(/127\.0\.0\.1:\d+\/pay\/cs_test_/);
    await page.getByRole("button", { name: "Save card" }).click();
    await page.waitForURL("**/smp/wallet**");
    await page.waitForSelector("html[data-hydrated]");
    await see(page.locator(".wallet-cards"), "VISA •••• 4242, expires 12/2030");
    await screenshot(page, "card-payments-04-card-saved-phone");
    await page.getByRole("button", { name: "Remove VISA •••• 4242, expires 12/2030" }).click();
    await see(page.locator("section").filter({ hasText: "Saved cards" }), "No saved cards.");
    expect((await apiCall(member, "GET", `/core/card/binding/${member.memberId}`)).body.info).toEqual([]);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "card-payments-05-card-removed-phone");

    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
