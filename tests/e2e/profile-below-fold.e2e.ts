/**
 * The public profile and the profiles feed render their below-the-fold blocks when they near the screen (README
 * Decisions "Lighter main pages"): the member strips are read then, through the page's own loader, and the feed's
 * cards after the first screen render then. Every block is still there for a member who scrolls.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function scrollToEnd(page: Page) {
  for (let i = 0; i < 12; i++) {
    await page.mouse.wheel(0, 700);
    await page.waitForTimeout(150);
  }
}

describe("below-the-fold blocks on demand", () => {
  it("reads the public profile's strips when they near the screen, and renders the feed's later cards on scroll", async () => {
    const host = await apiSignUp();
    const viewer = await apiSignUp();
    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(page, viewer.email, viewer.password);

    const asked: string[] = [];
    page.on("request", (request) => request.url().includes(".data") && asked.push(request.url()));
    await gotoHydrated(page, `/smp/share/${host.memberNo}`);
    // The first screen came without the strips' cards: nothing asked for them yet.
    expect(await page.locator(".strip-section").count()).toBe(0);
    expect(asked.filter((url) => url.includes("all"))).toEqual([]);
    await scrollToEnd(page);
    // Newbies always holds the members just made: the strips arrive through the page's loader (`all`).
    await page.getByRole("list", { name: "Newbies" }).waitFor();
    expect(asked.filter((url) => url.includes("all")).length).toBe(1);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "below-fold-01-share-strips-phone");

    await gotoHydrated(page, "/smp/profiles");
    const cards = page.getByRole("list", { name: "Member cards" }).locator("li");
    const total = await cards.count();
    const pending = page.locator(".profile-card-pending");
    if (total > 18) expect(await pending.count()).toBe(total - 18);
    await scrollToEnd(page);
    await expect.poll(() => pending.count()).toBe(0);
    expect(await page.getByRole("list", { name: "Member cards" }).getByRole("link").count()).toBe(total);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "below-fold-02-feed-phone");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
