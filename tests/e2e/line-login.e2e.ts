import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiSignUp, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall } from "./support/local-api";

/**
 * LINE login, bind (README Decisions "LINE login"), at phone size, against the fake LINE issuer the global setup
 * starts (tests/e2e/support/line-issuer.ts): it signs a fresh LINE user in at once and sends the browser back.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("LINE journey", () => {
  it("a new member signs in with LINE, confirms they are an adult and lands in the app; a member binds LINE from My profile", async () => {
    const issuer = inject("lineIssuer");
    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });

    await gotoHydrated(page, "/smp/login");
    const lineButton = page.getByRole("button", { name: "Continue with LINE" });
    await lineButton.waitFor();
    await screenshot(page, "line-01-login");
    expect(await hasHorizontalOverflow(page)).toBe(false);

    // Out to LINE (the fake) and back to the callback page, which asks for the adult confirmation first.
    const toLine = page.waitForRequest((request) => request.url().startsWith(`${issuer}/oauth2/v2.1/authorize`));
    await lineButton.click();
    const authorize = new URL((await toLine).url());
    expect(authorize.searchParams.get("scope")).toBe("openid");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    await page.waitForURL("**/smp/line-callback");
    await see(page.getByRole("heading"), "Join with LINE");
    // The code and state left the address bar at once.
    expect(new URL(page.url()).search).toBe("");
    // The box is required: the form is not sent without it (the API refuses it too: tests/api/line-login.test.ts).
    await page.getByRole("button", { name: "Create my account" }).click();
    expect(new URL(page.url()).pathname).toBe("/smp/line-callback");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    await screenshot(page, "line-02-confirm-adult");
    expect(await hasHorizontalOverflow(page)).toBe(false);

    await page.getByLabel(/18 or older/i).check();
    await page.getByRole("button", { name: "Create my account" }).click();
    await page.waitForURL("**/smp/home");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toHaveLength(32);
    expect((await context.cookies()).find((c) => c.name === "velvet_session")?.httpOnly).toBe(true);
    // The one-use sign-in cookies are HttpOnly and gone.
    expect((await context.cookies()).filter((c) => c.name.startsWith("velvet_line")).map((c) => c.name)).toEqual([]);
    await screenshot(page, "line-03-home");

    // The LINE-made account has no password: My profile says LINE stays linked and offers no unlink.
    await gotoHydrated(page, "/smp/profile");
    const own = page.getByRole("region", { name: "LINE" });
    await see(own, "Linked to a LINE account since");
    await see(own, "no password");
    expect(await own.getByRole("button", { name: "Unlink LINE" }).count()).toBe(0);
    await context.close();

    // A password member links LINE from My profile.
    const member = await apiSignUp("SMP");
    const second = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(second.page, member.email, member.password);
    await gotoHydrated(second.page, "/smp/profile");
    const section = second.page.getByRole("region", { name: "LINE" });
    await see(section, "Link a LINE account to log in with LINE.");
    await section.getByRole("button", { name: "Link LINE account" }).click();
    await second.page.waitForURL("**/smp/profile");
    await see(second.page.getByRole("region", { name: "LINE" }), "Linked to a LINE account since");
    await second.page.getByRole("region", { name: "LINE" }).scrollIntoViewIfNeeded();
    await screenshot(second.page, "line-04-profile-bound");
    expect(await hasHorizontalOverflow(second.page)).toBe(false);
    expect((await apiCall(member, "GET", `/core/members/line/${member.memberId}`)).body.info).toMatchObject({ bound: true, hasPassword: true });

    // It keeps a password, so it may unlink.
    await second.page.getByRole("region", { name: "LINE" }).getByRole("button", { name: "Unlink LINE" }).click();
    await see(second.page.getByRole("region", { name: "LINE" }), "Link a LINE account to log in with LINE.");
    expect((await apiCall(member, "GET", `/core/members/line/${member.memberId}`)).body.info).toMatchObject({ bound: false });

    expect(consoleErrors).toEqual([]);
    expect(second.consoleErrors).toEqual([]);
    await second.context.close();
    // Two sign-ins and two trips to LINE on a shared machine.
  }, 240_000);
});
