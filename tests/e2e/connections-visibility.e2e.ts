import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, scrollToEnd, see } from "./support/browser";
import { apiCall } from "./support/local-api";

// README Decisions "Who sees my connections": from My profile's lists to Settings and back, then another member's view.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("who sees my connections at phone size", () => {
  it("hides my lists from My profile's Change link; another member's view of my profile shows no sub-member", async () => {
    const [me, sub, fan, stranger] = [await apiSignUp(), await apiSignUp(), await apiSignUp(), await apiSignUp()];
    const subNick = `Quiet sub ${Date.now().toString(36)}`;
    expect((await apiCall(me, "PATCH", `/core/profiles/${me.memberId}`, { nickname: "Hidden master", multiGender: 1 })).status).toBe(200);
    expect((await apiCall(sub, "PATCH", `/core/profiles/${sub.memberId}`, { nickname: subNick })).status).toBe(200);
    expect((await apiCall(sub, "POST", "/sns/sub-members/SMP/join", { masterMemberNo: me.memberNo })).status).toBe(200);
    expect((await apiCall(fan, "POST", `/core/follows/${me.memberNo}`)).status).toBe(200);

    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(page, me.email, me.password);
    await gotoHydrated(page, "/smp/profile");
    await see(page.locator(".connections-hint"), "Everyone can see these lists and counts.");
    await page.getByRole("link", { name: "Change who sees my connections" }).click();
    await page.waitForURL("**/smp/settings#connections");
    await page.waitForSelector("html[data-hydrated]");
    const section = page.getByRole("region", { name: "Who sees my connections" });
    await section.getByRole("radio", { name: "Everyone" }).waitFor();
    await expect.poll(() => section.getByRole("radio", { name: "Everyone" }).isChecked()).toBe(true);
    await section.getByText("Only me").click();
    await see(page.locator(".toast"), "Saved");
    expect((await apiCall(me, "GET", `/core/connections-visibility/${me.memberId}`)).body.info).toEqual({ connectionsVisibility: "nobody" });
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "connections-01-settings-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);

    // Back on My profile: the lists say they are hidden, and I still see my own follower and sub-member.
    await gotoHydrated(page, "/smp/profile");
    await see(page.locator(".connections-hint"), "Hidden from others — only you see these lists.");
    await page.getByRole("tab", { name: "Followers (1)" }).click();
    await see(page.locator(".submember-list"), subNick);
    await page.locator(".connections-hint").scrollIntoViewIfNeeded();
    await screenshot(page, "connections-02-own-lists-hidden-hint");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    expect(consoleErrors).toEqual([]);
    await context.close();

    // Another member opens my profile: no sub-member, no count; the join button still works as before.
    const other = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(other.page, stranger.email, stranger.password);
    await gotoHydrated(other.page, `/smp/share/${me.memberNo}`);
    // The sub-members block is the last on the page and reads its list when the member scrolls near it.
    await scrollToEnd(other.page);
    const subs = other.page.getByRole("region", { name: "Sub-members" });
    await subs.waitFor();
    await subs.getByRole("button", { name: "Serve this master" }).waitFor();
    expect(await subs.textContent()).not.toContain(subNick);
    expect(await other.page.content()).not.toContain(subNick);
    await subs.scrollIntoViewIfNeeded();
    await screenshot(other.page, "connections-03-others-view-phone");
    expect(await hasHorizontalOverflow(other.page)).toBe(false);
    expect(other.consoleErrors).toEqual([]);
    await other.context.close();

    // A visitor: the same, with the login link in place of the join button.
    const visitor = await newPage(browser, { viewport: "phone" });
    await gotoHydrated(visitor.page, `/smp/share/${me.memberNo}`);
    await scrollToEnd(visitor.page);
    const visitorSubs = visitor.page.getByRole("region", { name: "Sub-members" });
    await visitorSubs.waitFor();
    expect(await visitor.page.content()).not.toContain(subNick);
    expect(visitor.consoleErrors).toEqual([]);
    await visitor.context.close();
  });
});
