/**
 * The public profile and the profiles feed render their below-the-fold blocks when they near the screen (README
 * Decisions "Lighter main pages"): the member strips are read then, through the page's own loader, and the feed's
 * cards after the first screen render then. Every block is still there for a member who scrolls.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, apiSignUpPoster, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, scrollToEnd } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("below-the-fold blocks on demand", () => {
  it("reads the public profile's strips when they near the screen, and renders the feed's later cards on scroll", async () => {
    // With a qualifying avatar the host is listed (newbies), on a fresh state too, not only after other journeys.
    const host = await apiSignUpPoster();
    const viewer = await apiSignUp();
    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(page, viewer.email, viewer.password);

    const asked: string[] = [];
    page.on("request", (request) => (request.url().includes(".data") || request.url().includes("/api/v7/")) && asked.push(request.url()));
    // The blocks at the end of the page: the member's public chat messages and their sub-members (the DNA card
    // also waits, but on a sparse new profile it is already near the first screen).
    const belowFold = (url: string) => /messages\?pageSize=20&memberNo=|\/sns\/sub-members\//.test(url);
    await gotoHydrated(page, `/smp/share/${host.memberNo}`);
    // The first screen came without the strips' cards: nothing asked for them yet.
    expect(await page.locator(".strip-section").count()).toBe(0);
    expect(asked.filter((url) => url.includes("all"))).toEqual([]);
    expect(asked.filter(belowFold)).toEqual([]);
    await scrollToEnd(page);
    // Newbies always holds the members just made: the strips arrive through the page's loader (`all`).
    await page.getByRole("list", { name: "Newbies" }).waitFor();
    expect(asked.filter((url) => url.includes("all")).length).toBe(1);
    await expect.poll(() => asked.filter(belowFold).length).toBe(2);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "below-fold-01-share-strips-phone");

    await gotoHydrated(page, "/smp/profiles");
    const cards = page.getByRole("list", { name: "Member cards" }).locator("li");
    await cards.first().waitFor();
    // Both counts in one frame: cards drawn on demand can change the second between two reads.
    const [total, pendingAtLoad] = await page.evaluate(() => [
      document.querySelectorAll('[aria-label="Member cards"] > li').length,
      document.querySelectorAll(".profile-card-pending").length,
    ]);
    const pending = page.locator(".profile-card-pending");
    if (total > 18) expect(pendingAtLoad).toBe(total - 18);
    await scrollToEnd(page);
    await expect.poll(() => pending.count()).toBe(0);
    expect(await page.getByRole("list", { name: "Member cards" }).getByRole("link").count()).toBe(total);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "below-fold-02-feed-phone");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
