import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, baseUrl, gotoHydrated, launchBrowser, newPage, screenshot, see, uniqueEmail } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("accounts journey", () => {
  it("signs up, logs out, fails with a wrong password, then logs in", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const email = uniqueEmail();

    await page.goto("/");
    expect(new URL(page.url()).pathname).toMatch(/^\/smp\//);

    await gotoHydrated(page, "/smp/registration");
    await page.getByLabel(/^email/i).fill(email);
    await page.getByLabel(/^password$/i).fill("correct horse battery");
    await page.getByLabel(/confirm password/i).fill("something else");
    await page.getByLabel(/18 or older/i).check();
    await page.getByRole("button", { name: "Sign up" }).click();
    await see(page.getByRole("alertdialog"), "Password does not match");
    await page.getByRole("button", { name: "OK" }).click();
    await page.getByLabel(/confirm password/i).fill("correct horse battery");
    await screenshot(page, "session-01-registration");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL("**/smp/home");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toHaveLength(32);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === "velvet_session")?.httpOnly).toBe(true);

    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL("**/smp/login");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    // The ended session no longer renders private pages.
    await page.goto("/smp/home");
    await page.waitForURL("**/smp/login");

    await page.waitForSelector("html[data-hydrated]");
    await page.getByLabel(/email/i).fill(email);
    await page.getByLabel(/^password$/i).fill("wrong password");
    await page.getByLabel(/^password$/i).press("Enter");
    await see(page.getByRole("alertdialog"), "Incorrect email or password");
    await screenshot(page, "session-02-login-error");
    await page.getByRole("button", { name: "OK" }).click();

    await page.getByLabel(/^password$/i).fill("correct horse battery");
    const historyBefore = await page.evaluate(() => history.length);
    await page.getByLabel(/^password$/i).press("Enter");
    await page.waitForURL("**/smp/home");
    // Success replaces the login entry in history instead of adding one.
    expect(await page.evaluate(() => history.length)).toBe(historyBefore);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("keeps the chosen language across reloads, over the browser's language", async () => {
    const { page, context } = await newPage(browser, { locale: "en-US" });
    await gotoHydrated(page, "/smp/login");
    await page.getByRole("button", { name: "日本語" }).click();
    await see(page.getByRole("heading", { level: 1 }), "ログイン");
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await see(page.getByRole("heading", { level: 1 }), "ログイン");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ja");
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("ja");
    await screenshot(page, "session-03-login-ja");
    await page.getByRole("button", { name: "繁體中文" }).click();
    await see(page.getByRole("heading", { level: 1 }), "登入");
    await context.close();
  });

  it("titles pages in the language picked on the login page, without a reload", async () => {
    const member = await apiSignUp();
    // The member's stored language is Japanese too, so logging in keeps the page (no full reload to apply it).
    const stored = await fetch(`${baseUrl()}/api/v7/private/core/profiles/${member.memberId}`, {
      method: "PATCH",
      headers: { ...member.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ language: "ja" }),
    });
    expect(stored.status).toBe(200);
    const { page, context } = await newPage(browser, { locale: "en-US" });
    await gotoHydrated(page, "/smp/login");
    await page.getByRole("button", { name: "日本語" }).click();
    await see(page.getByRole("heading", { level: 1 }), "ログイン");
    await page.locator("input[type=email]").fill(member.email);
    await page.locator("input[type=password]").fill(member.password);
    await page.locator("input[type=password]").press("Enter");
    await page.waitForURL("**/smp/home");
    // A client-side navigation: the page title comes from the root loader's language data.
    await page.locator('a[href="/smp/notification"]:visible').first().click();
    await page.waitForURL("**/smp/notification");
    await expect.poll(() => page.title()).toBe("Velvet · チャット");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ja");
    await screenshot(page, "session-04-notification-ja");
    await context.close();
  });

  it("redirects private pages to login without a session, and bad project codes to /smp", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/smp/home");
    expect(new URL(page.url()).pathname).toBe("/smp/login");
    await page.goto("/toolong/home");
    expect(new URL(page.url()).pathname).toMatch(/^\/smp/);
    await context.close();
  });
});
