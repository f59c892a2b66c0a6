import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot } from "./support/browser";
import { apiCall } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("quiet hours for push (phone)", () => {
  it("turns them on in Settings, picks hours and a time zone, and the server keeps them", async () => {
    const me = await apiSignUp();
    const { page, context } = await newPage(browser);
    await loginThroughPage(page, me.email, me.password);
    await gotoHydrated(page, "/smp/settings");
    const section = page.getByRole("region", { name: "Quiet hours" });
    await section.getByRole("switch", { name: /Quiet hours for push notifications/ }).click();
    await section.getByLabel("From").waitFor();
    expect((await apiCall(me, "GET", `/sns/notifications/quiet-hours/${me.memberId}`)).body.info).toMatchObject({ enabled: true, startHour: 22, endHour: 7 });

    await section.getByLabel("From").selectOption("23");
    await section.getByLabel("Until").selectOption("6");
    await section.getByLabel("Time zone").selectOption("Asia/Tokyo");
    await section.getByRole("button", { name: "Save quiet hours" }).click();
    // The switch's own "Saved" toast can still be showing, so the server is asked until it keeps the new window.
    await expect
      .poll(async () => (await apiCall(me, "GET", `/sns/notifications/quiet-hours/${me.memberId}`)).body.info)
      .toEqual({ enabled: true, startHour: 23, endHour: 6, timeZone: "Asia/Tokyo" });
    await page.getByText("Saved").first().waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "quiet-hours-01-set-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);

    // After a reload the page shows what the server keeps; turning it off removes it.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => section.getByLabel("Time zone").inputValue()).toBe("Asia/Tokyo");
    await section.getByRole("switch", { name: /Quiet hours for push notifications/ }).click();
    await section.getByLabel("From").waitFor({ state: "detached" });
    expect((await apiCall(me, "GET", `/sns/notifications/quiet-hours/${me.memberId}`)).body.info).toEqual({ enabled: false });
    await context.close();
  });
});
