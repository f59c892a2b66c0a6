import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directChatroomId } from "../../worker/contract/chat.constants";
import { apiSignUp, apiSignUpPoster, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot } from "./support/browser";
import { apiCall, type Account } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let seq = 0;
const write = (from: Account, to: Account, message: string) =>
  apiCall(from, "POST", `/sns/chatrooms/${directChatroomId(from.memberNo, to.memberNo)}/messages/${from.memberId}`, { requestId: `rf-e2e-${Date.now()}-${++seq}`, message });

describe("requests tray controls and filters (phone)", () => {
  it("sets filters in Settings, finds a filtered request in the tray's Filtered section, declines from the tray, opens filtered notices", async () => {
    const me = await apiSignUp();
    expect((await apiCall(me, "PUT", "/sns/chat-settings", { acceptFrom: "friends" })).body.returnCode).toBe("000000");
    const { page, context } = await newPage(browser);
    await loginThroughPage(page, me.email, me.password);

    // Settings: members without an avatar are filtered, in the tray and in notifications.
    await gotoHydrated(page, "/smp/settings");
    const section = page.getByRole("region", { name: "Filters for requests and notifications" });
    await section.getByLabel("Members without an avatar").check();
    await section.getByRole("button", { name: "Save filters" }).click();
    await page.getByText("Filters saved").first().waitFor();
    expect((await apiCall(me, "GET", "/sns/requests-filters")).body.info).toMatchObject({ noAvatar: true, inRequests: true, inNotifications: true });
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "requests-filters-01-settings-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);

    // A member with an avatar and one without write first; the second waits in Filtered.
    const [pictured, bare] = [await apiSignUpPoster(), await apiSignUp()];
    expect((await write(pictured, me, "hello from a picture")).body.returnCode).toBe("000000");
    expect((await write(bare, me, "hello from nobody")).body.returnCode).toBe("000000");
    expect((await apiCall(bare, "POST", `/core/follows/${me.memberNo}`)).body.returnCode).toBe("000000");

    await gotoHydrated(page, "/smp/notification");
    const tray = page.getByRole("region", { name: "Message requests" });
    await tray.getByText(/sent you 1 message/).first().waitFor();
    await tray.getByRole("button", { name: "Filtered (1)" }).click();
    const filtered = tray.getByRole("region", { name: "Filtered" });
    await filtered.getByRole("button", { name: "Decline everything from them" }).waitFor();
    await screenshot(page, "requests-filters-02-tray-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);

    await filtered.getByRole("button", { name: "Decline everything from them" }).click();
    await page.getByText("Declined everything from this member.").first().waitFor();
    expect((await apiCall(me, "GET", "/sns/message-requests/filtered")).body.info).toEqual([]);

    await tray.getByRole("button", { name: "Decline and block" }).click();
    await page.getByText("Declined and blocked.").first().waitFor();
    expect((await apiCall(me, "GET", "/sns/message-requests")).body.info).toEqual([]);
    expect(JSON.stringify((await apiCall(me, "GET", "/core/blocks")).body.info)).toContain(pictured.memberNo);

    // Notifications: the filtered member's follow waits under "Show filtered"; the way to the filters is there too.
    const late = await apiSignUp();
    expect((await apiCall(late, "POST", `/core/follows/${me.memberNo}`)).body.returnCode).toBe("000000");
    await gotoHydrated(page, "/smp/message");
    await page.getByRole("tab", { name: /Notification/ }).click();
    const notices = page.getByRole("region", { name: "Filtered" });
    await notices.getByRole("button", { name: "Show filtered" }).click();
    await notices.locator(".notice").first().waitFor();
    expect(await notices.locator(".notice").count()).toBeGreaterThanOrEqual(1);
    await screenshot(page, "requests-filters-03-notices-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await notices.getByRole("link", { name: "Filter settings" }).click();
    await page.waitForURL(/\/smp\/settings/);
    await page.getByRole("region", { name: "Filters for requests and notifications" }).waitFor();
    await context.close();
  });
});
