import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUpPoster, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall } from "./support/local-api";

/**
 * Approve followers at phone size (README Decisions "Approve followers"): the member switches it on in Settings; a
 * requester's heart says "Requested" and they get a visitor's view (the blurred rendition, in the loader data too);
 * the member accepts from the Chats tab; the requester then sees the full profile.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const avatarOf = (page: import("playwright-core").Page) => page.getByRole("heading", { level: 1 }).locator("xpath=ancestor::section//img").first();

describe("approve followers", () => {
  it("a follow becomes a request, accepted from the Chats tab; the requester then sees the full profile", async () => {
    const [owner, fan] = [await apiSignUpPoster(), await apiSignUpPoster()];
    expect((await apiCall(owner, "PATCH", `/core/profiles/${owner.memberId}`, { nickname: "Careful Owner", introduction: "I choose who follows me, thank you for asking.", language: "en" })).body.returnCode).toBe("000000");
    expect((await apiCall(fan, "PATCH", `/core/profiles/${fan.memberId}`, { nickname: "Hopeful Fan", introduction: "Hoping to follow a few careful people here.", language: "en" })).body.returnCode).toBe("000000");

    // The owner switches approval on in Settings.
    const o = await newPage(browser);
    await loginThroughPage(o.page, owner.email, owner.password);
    await gotoHydrated(o.page, "/smp/settings");
    const toggle = o.page.getByRole("switch", { name: /^Approve followers/ });
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");
    await screenshot(o.page, "approve-followers-01-settings");
    expect((await apiCall(owner, "GET", `/core/follow-approval/${owner.memberId}`)).body.info).toEqual({ approveFollowers: true });

    // The requester: a visitor's view (the blurred rendition), in the loader data too; the heart asks.
    const f = await newPage(browser);
    await loginThroughPage(f.page, fan.email, fan.password);
    await gotoHydrated(f.page, `/smp/share/${owner.memberNo}`);
    await see(f.page.getByRole("heading", { level: 1 }), "Careful Owner");
    expect(await avatarOf(f.page).getAttribute("src")).toContain("/blur/");
    await f.page.getByRole("button", { name: "Follow Careful Owner" }).click();
    const requested = f.page.getByRole("button", { name: /Follow requested/ });
    await see(requested, "Requested");
    await screenshot(f.page, "approve-followers-02-requested");
    const cookie = (await f.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const before = await (await fetch(`${baseUrl()}/smp/share/${owner.memberNo}.data`, { headers: { cookie } })).text();
    const original = (await apiCall(owner, "GET", `/core/profiles/${owner.memberId}`)).body.info.avator as string;
    expect(original).toContain("/media/");
    expect(before).toContain("Careful Owner");
    expect(before).not.toContain(original);
    // After a reload the heart still says "Requested" (the server's relationship, not local state).
    await gotoHydrated(f.page, `/smp/share/${owner.memberNo}`);
    await see(f.page.getByRole("button", { name: /Follow requested/ }), "Requested");

    // The owner accepts from the Chats tab.
    await o.page.getByRole("link", { name: /^Chats/ }).first().click();
    await o.page.waitForURL("**/smp/notification");
    const requests = o.page.getByRole("region", { name: "Follow requests" });
    await see(requests, "Hopeful Fan");
    await screenshot(o.page, "approve-followers-03-chats-requests");
    await requests.getByRole("button", { name: "Accept: Hopeful Fan" }).click();
    await see(o.page.locator("body"), "Hopeful Fan now follows you");
    await expect.poll(() => requests.count()).toBe(0);

    // The requester now follows and sees the full profile (the original avatar, not the rendition).
    await gotoHydrated(f.page, `/smp/share/${owner.memberNo}`);
    await f.page.getByRole("button", { name: "Unfollow Careful Owner" }).waitFor();
    await expect.poll(() => avatarOf(f.page).getAttribute("src")).not.toContain("/blur/");
    await screenshot(f.page, "approve-followers-04-full-profile");
    expect(o.consoleErrors).toEqual([]);
    expect(f.consoleErrors).toEqual([]);
    await o.context.close();
    await f.context.close();
  });
});
