import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, apiSignUpPoster, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { localSql } from "./support/local-api";

type Account = Awaited<ReturnType<typeof apiSignUp>>;

async function apiCall<T = any>(member: Account, method: string, apiPath: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}/api/v7/private${apiPath}`, {
    method,
    headers: { ...member.headers, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return ((await response.json()) as { info: T }).info;
}

async function openProfile(page: Page, memberNo: string) {
  await gotoHydrated(page, `/smp/share/${memberNo}`);
  await page.getByRole("button", { name: `Follow ${memberNo}` }).or(page.getByRole("button", { name: `Unfollow ${memberNo}` })).waitFor();
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("social journeys", () => {
  it("follows then unfollows with the heart, and blocks only with a second tap inside the 3 s window", async () => {
    const [me, other] = [await apiSignUp(), await apiSignUp()];
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, me.email, me.password);
    await openProfile(page, other.memberNo!);

    const heart = page.getByRole("button", { name: `Follow ${other.memberNo}` });
    await heart.click();
    const unfollow = page.getByRole("button", { name: `Unfollow ${other.memberNo}` });
    await unfollow.waitFor();
    expect(await unfollow.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(async () => (await apiCall(me, "GET", `/core/follows/${other.memberNo}`)).following).toBe(true);
    await screenshot(page, "social-01-followed");
    await unfollow.click();
    await page.getByRole("button", { name: `Follow ${other.memberNo}` }).waitFor();
    await expect.poll(async () => (await apiCall(me, "GET", `/core/follows/${other.memberNo}`)).following).toBe(false);

    // First tap arms; letting the 3 s window pass disarms without blocking.
    await page.getByRole("button", { name: "Block", exact: true }).click();
    await page.getByRole("button", { name: "Tap again within 3 s to block" }).waitFor();
    await page.waitForTimeout(3300);
    await page.getByRole("button", { name: "Block", exact: true }).waitFor();
    expect((await apiCall(me, "GET", "/core/blocks")).items).toEqual([]);

    // Two taps inside the window block, warn, and light one of the 10 indicators.
    await page.getByRole("button", { name: "Block", exact: true }).click();
    await page.getByRole("button", { name: "Tap again within 3 s to block" }).click();
    await see(page.locator(".toast"), "is blocked");
    await page.getByRole("img", { name: "Blocked by 1 of 10 members" }).waitFor();
    await page.getByRole("button", { name: "Unblock" }).waitFor();
    await screenshot(page, "social-02-blocked");
    const blocks = (await apiCall(me, "GET", "/core/blocks")).items;
    expect(blocks.map((b: any) => b.profile.simpleCode)).toEqual([other.memberNo]);
    // Two-way: the blocked member cannot follow back.
    const refused = await fetch(`${baseUrl()}/api/v7/private/core/follows/${me.memberNo}`, { method: "POST", headers: other.headers });
    expect(refused.status).toBe(404);

    // My profile lists the block with a gray avatar; the first tap re-confirms, the second unblocks.
    await gotoHydrated(page, "/smp/profile");
    await page.getByRole("tab", { name: /Blocked by me/ }).click();
    const grayAvatar = page.getByRole("button", { name: new RegExp(`^Unblock: ${other.memberNo}`) });
    await grayAvatar.waitFor();
    expect(await grayAvatar.locator(".avatar-gray").count()).toBe(1);
    await screenshot(page, "social-03-blocked-list");
    await grayAvatar.click();
    await page.getByRole("button", { name: new RegExp(`^Tap again to unblock: ${other.memberNo}`) }).click();
    await see(page.locator(".toast"), "Unblocked");
    await expect.poll(async () => (await apiCall(me, "GET", "/core/blocks")).items.length).toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("writes a guestbook entry (after the verification gate) and the owner reads and replies on the Messages page", async () => {
    const [writer, owner] = [await apiSignUpPoster(), await apiSignUpPoster()];
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, writer.email, writer.password);
    await openProfile(page, owner.memberNo!);

    // Unverified: the §8 warning, nothing stored.
    await page.getByRole("button", { name: "Leave a message" }).click();
    await page.getByRole("textbox", { name: "Message" }).fill("Hello before verification");
    await page.getByRole("button", { name: "Send" }).click();
    await see(page.locator(".toast"), "Need to verify before leaving a message");
    await screenshot(page, "social-04-needs-verification");
    // README Decisions "Verification": the dialog now explains how to ask; close it to try again once verified.
    await page.getByRole("dialog").getByRole("button", { name: "Request verification" }).waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();

    localSql(`update profiles set kyc_status = 1 where member_id = '${writer.memberId}'`);
    await page.getByRole("button", { name: "Leave a message" }).click();
    await page.getByRole("textbox", { name: "Message" }).fill("Hello from the e2e guestbook");
    await page.getByRole("button", { name: "Send" }).click();
    await see(page.locator(".toast"), "Message sent");
    await context.close();

    // The owner reads it in the Guestbook tab and replies.
    const ownerView = await newPage(browser, { viewport: "desktop" });
    await loginThroughPage(ownerView.page, owner.email, owner.password);
    await gotoHydrated(ownerView.page, "/smp/message");
    await see(ownerView.page.locator(".entry"), "Hello from the e2e guestbook");
    // Unread notifications are counted on their tab; the red New marker is for unread chat messages (§2).
    await ownerView.page.getByRole("tab", { name: /Notification \d+ unread/ }).waitFor();
    await screenshot(ownerView.page, "social-05-messages-guestbook");
    await ownerView.page.getByRole("button", { name: `Reply to ${writer.memberNo}` }).click();
    await ownerView.page.getByRole("textbox", { name: "Message" }).fill("Thanks for visiting!");
    await ownerView.page.getByRole("button", { name: "Send" }).click();
    await see(ownerView.page.locator(".toast"), "Reply sent");
    await ownerView.page.getByRole("button", { name: `History with ${writer.memberNo}` }).click();
    const drawer = ownerView.page.getByRole("dialog", { name: `Conversation with ${writer.memberNo}` });
    await see(drawer, "Thanks for visiting!");
    await see(drawer, "Hello from the e2e guestbook");
    await screenshot(ownerView.page, "social-06-history-drawer");
    await drawer.getByRole("button", { name: "Close" }).click();

    // The Notification tab is remembered across reloads and lists the guestbook notice.
    await ownerView.page.getByRole("tab", { name: /Notification/ }).click();
    await see(ownerView.page.locator(".notice"), "left a message");
    expect(await ownerView.page.evaluate(() => localStorage.getItem("lastMessagePageTab"))).toBe("notification");
    await ownerView.page.reload();
    await ownerView.page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => ownerView.page.getByRole("tab", { name: /Notification/ }).getAttribute("aria-selected")).toBe("true");
    // Two-step clear-all.
    await ownerView.page.getByRole("button", { name: "Clear all notifications" }).click();
    await ownerView.page.getByRole("button", { name: "Tap again to clear everything" }).click();
    await see(ownerView.page.locator(".empty-state"), "No notifications.");
    await screenshot(ownerView.page, "social-07-notifications-cleared");
    expect(await apiCall(owner, "GET", "/core/notifications")).toMatchObject({ items: [] });
    expect(consoleErrors).toEqual([]);
    expect(ownerView.consoleErrors).toEqual([]);
    await ownerView.context.close();
  });

  it("shows the basement only to verified members", async () => {
    const [plain, verified] = [await apiSignUp(), await apiSignUp()];
    localSql(`update profiles set kyc_status = 1 where member_id = '${verified.memberId}'`);
    const a = await newPage(browser);
    await loginThroughPage(a.page, plain.email, plain.password);
    const refused = await a.page.goto("/basement/");
    expect(refused?.status()).toBe(403);
    await see(a.page.getByRole("alert"), "requires verification");
    await a.context.close();
    const b = await newPage(browser);
    await loginThroughPage(b.page, verified.email, verified.password);
    await gotoHydrated(b.page, "/basement/");
    await b.page.getByRole("heading", { name: "Verified members" }).waitFor();
    await screenshot(b.page, "social-08-basement");
    expect(b.consoleErrors).toEqual([]);
    await b.context.close();
  });
});
