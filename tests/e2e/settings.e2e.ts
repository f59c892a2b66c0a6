import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, avatarJpeg, baseUrl, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see, uniqueEmail } from "./support/browser";
import { apiCall } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A member with a nickname and a qualified avatar (members without one see no one's avatar, §6). */
async function memberWithAvatar(nickname: string, hue: number) {
  const m = await apiSignUp();
  expect((await apiCall(m, "PATCH", `/core/profiles/${m.memberId}`, { nickname })).body.returnCode).toBe("000000");
  const form = new FormData();
  form.set("type", "avatar");
  form.set("file", new Blob([new Uint8Array(avatarJpeg(hue))], { type: "image/jpeg" }), "avatar.jpg");
  const upload = await fetch(`${baseUrl()}/api/v7/private/core/files/SMP/${m.memberId}`, { method: "POST", headers: m.headers, body: form });
  expect(((await upload.json()) as { returnCode: string }).returnCode).toBe("000000");
  return { ...m, nickname };
}

describe("settings journey (phone)", () => {
  it("from My profile: password, language, safe mode, invitation and unblock", async () => {
    const me = await memberWithAvatar("Settings Me", 10);
    const shown = await memberWithAvatar("Settings Shown", 55);
    const blocked = await memberWithAvatar("Settings Blocked", 90);
    expect((await apiCall(me, "POST", "/core/blocks", { targetMemberNo: blocked.memberNo })).body.returnCode).toBe("000000");

    const a = await newPage(browser);
    await a.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    await loginThroughPage(a.page, me.email, me.password);
    const b = await newPage(browser);
    await loginThroughPage(b.page, me.email, me.password);

    // My profile → Settings.
    await gotoHydrated(a.page, "/smp/profile");
    await a.page.getByRole("link", { name: "Settings", exact: true }).click();
    await a.page.waitForURL("**/smp/settings");
    await a.page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await a.page.waitForSelector("html[data-hydrated]");
    await screenshot(a.page, "settings-01-page-phone");
    expect(await hasHorizontalOverflow(a.page)).toBe(false);

    // Password: the result is said in words; this device stays, the other one is signed out.
    const password = a.page.getByRole("region", { name: "Password" });
    await password.getByLabel("Current password").fill("not my password");
    await password.getByLabel("New password", { exact: true }).fill("a brand new password");
    await password.getByLabel("Confirm new password").fill("a brand new password");
    await password.getByRole("button", { name: "Change password" }).click();
    await see(password.getByRole("alert"), "Current password is incorrect");
    await password.getByLabel("Current password").fill(me.password);
    await password.getByRole("button", { name: "Change password" }).click();
    await see(password.getByRole("status"), "every other device has been signed out");
    await password.scrollIntoViewIfNeeded();
    await screenshot(a.page, "settings-02-password-changed");
    await b.page.reload();
    await b.page.waitForURL("**/smp/login");
    expect((await apiCall(me, "GET", "/core/social-settings")).body.returnCode).toBe("100003");
    await b.context.close();

    // Language: Japanese, stored for the member, and still Japanese after a reload.
    await a.page.getByRole("region", { name: "Language" }).getByRole("button", { name: /日本語/ }).click();
    await a.page.getByRole("heading", { level: 1, name: "設定" }).waitFor();
    await a.page.reload();
    await a.page.waitForSelector("html[data-hydrated]");
    await a.page.getByRole("heading", { level: 1, name: "設定" }).waitFor();
    expect(await a.page.evaluate(() => document.documentElement.lang)).toBe("ja");
    await screenshot(a.page, "settings-03-japanese");
    await a.page.getByRole("button", { name: /English/ }).click();
    await a.page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();

    // Safe mode: another member's avatar is a picture before, a generated placeholder after, on another page.
    await gotoHydrated(a.page, `/smp/share/${shown.memberNo}`);
    await a.page.locator("img.avatar").first().waitFor();
    await gotoHydrated(a.page, "/smp/settings");
    await a.page.getByRole("switch", { name: /Safe mode/ }).click();
    await see(a.page.locator(".toast"), "Saved");
    expect(await a.page.getByRole("switch", { name: /Safe mode/ }).getAttribute("aria-checked")).toBe("true");
    await gotoHydrated(a.page, `/smp/share/${shown.memberNo}`);
    await a.page.locator(".avatar-placeholder").first().waitFor();
    await expect.poll(() => a.page.locator("img.avatar").count()).toBe(0);
    await screenshot(a.page, "settings-04-safe-mode-placeholders");
    await gotoHydrated(a.page, "/smp/home");
    await a.page.locator(".avatar-placeholder").first().waitFor();
    await expect.poll(() => a.page.locator("img.avatar").count()).toBe(0);

    // Invitation: copy my link; a newcomer signs up through it with the code filled in.
    await gotoHydrated(a.page, "/smp/settings");
    const invite = a.page.getByRole("region", { name: "Invite someone" });
    await invite.getByRole("button", { name: "Copy link" }).click();
    await see(a.page.locator(".toast"), "Link copied");
    const link = await a.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(await invite.getByLabel("Your invitation link").inputValue());
    expect(link).toMatch(/\/smp\/registration\?referralCode=[A-Z2-9]{8}$/);
    await invite.scrollIntoViewIfNeeded();
    await screenshot(a.page, "settings-05-invite");

    const c = await newPage(browser);
    await gotoHydrated(c.page, link);
    expect(await c.page.getByLabel("Invitation code (optional)").inputValue()).toBe(new URL(link).searchParams.get("referralCode"));
    await c.page.getByLabel("Email").fill(uniqueEmail("invited"));
    await c.page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await c.page.getByLabel("Confirm password").fill("correct horse battery");
    await c.page.getByRole("checkbox").check();
    await c.page.getByRole("button", { name: "Sign up" }).click();
    await c.page.waitForURL("**/smp/home");
    expect(await c.page.evaluate(() => localStorage.getItem("referralCode"))).toBeNull();
    expect(c.consoleErrors).toEqual([]);
    await c.context.close();
    await a.page.reload();
    await a.page.waitForSelector("html[data-hydrated]"); // a tap before hydration would do nothing
    await see(a.page.getByRole("region", { name: "Invite someone" }), "1 person has joined through your link.");

    // Unblock: the first tap re-confirms, the second lifts the block (§4).
    const blockedList = a.page.getByRole("region", { name: /Blocked/ });
    await blockedList.getByRole("button", { name: `Unblock: ${blocked.nickname}` }).click();
    await blockedList.getByRole("button", { name: `Tap again to unblock: ${blocked.nickname}` }).click();
    await see(a.page.locator(".toast"), "Unblocked");
    await see(blockedList, "You have not blocked anyone.");
    const now = await fetch(`${baseUrl()}/api/v7/public/core/sessions/SMP`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: me.email, password: "a brand new password" }),
    });
    const session = ((await now.json()) as { info: { token: string; memberId: string } }).info;
    const meNow = { ...me, headers: { "X-Access-Token": session.token, "X-Member-ID": session.memberId } };
    expect((await apiCall(meNow, "GET", "/core/blocks?pageSize=30")).body.info.items).toEqual([]);
    expect((await apiCall(meNow, "GET", `/core/profiles/${me.memberId}`)).body.info).toMatchObject({ language: "en", safeMode: true });
    await screenshot(a.page, "settings-06-unblocked");

    expect(a.consoleErrors).toEqual([]);
    await a.context.close();
  });
});
