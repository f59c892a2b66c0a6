import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { apiSignUp, apiSignUpPoster, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, scrollToEnd, see } from "./support/browser";
import { apiCall } from "./support/local-api";

// README Decisions "Safety controls": remove a follower from My profile, and a report that hides at once.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("safety controls at phone size", () => {
  it("removes a follower with a second tap, then reports a member whose messages disappear for me at once", async () => {
    const [me, fan] = [await apiSignUp(), await apiSignUpPoster()];
    expect((await apiCall(fan, "POST", `/core/follows/${me.memberNo}`)).status).toBe(200);
    const posted = await apiCall(fan, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${fan.memberId}`, { message: "words to be reported", requestId: `safety-e2e-${Date.now()}` });
    expect(posted.status).toBe(200);

    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(page, me.email, me.password);
    await gotoHydrated(page, "/smp/profile");
    await page.getByRole("tab", { name: "Followers (1)" }).click();
    await page.getByRole("button", { name: `Remove follower: ${fan.memberNo}` }).click();
    const confirm = page.getByRole("button", { name: `Tap again to remove: ${fan.memberNo}` });
    await confirm.waitFor();
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await page.locator(".person").first().screenshot({ path: await screenshot(page, "safety-00-remove-armed") });
    await confirm.click();
    await see(page.locator(".toast"), "no longer follows you");
    await page.getByRole("tab", { name: "Followers (0)" }).waitFor();
    await screenshot(page, "safety-01-follower-removed");
    // Silently: the removed member only no longer follows, and may follow again.
    const theirView = await apiCall(fan, "GET", `/core/follows/${me.memberNo}`);
    expect(theirView.body.info).toMatchObject({ following: false });
    expect((await apiCall(fan, "GET", "/core/notifications")).body.info.items).toEqual([]);

    await gotoHydrated(page, `/smp/share/${fan.memberNo}`);
    // Their chatroom messages are near the end of the page and read when the member scrolls near them.
    await scrollToEnd(page);
    const messages = page.getByRole("region", { name: "Chatroom messages" });
    await see(messages, "words to be reported");
    await page.getByRole("button", { name: "Report", exact: true }).click();
    await page.getByRole("button", { name: "Send report" }).click();
    await see(page.locator(".toast"), "Reported — hidden for you");
    await see(messages, "No messages");
    // The report is my lasting mute of them: the toggle says so, and I may lift it there.
    await page.getByRole("button", { name: "Unmute" }).waitFor();
    expect(await messages.textContent()).not.toContain("words to be reported");
    await screenshot(page, "safety-02-reported-hidden");
    // Others still see it until an operator decides.
    const stranger = await apiSignUp();
    const othersPage = await apiCall(stranger, "GET", `/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`);
    expect(othersPage.body.info.map((m: { message: string }) => m.message)).toContain("words to be reported");

    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
