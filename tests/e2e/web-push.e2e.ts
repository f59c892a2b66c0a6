import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, apiSignUp } from "./support/browser";
import { apiCall } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * This machine reaches no browser push service (no network), so the page's PushManager hands out a fixed
 * subscription: everything else — permission, service worker, the app's registration call — is the real path.
 * What leaves the server to a push service is covered in tests/api/web-push.test.ts.
 */
const fakePushManager = ({ endpoint }: { endpoint: string }) => {
  const keys = { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) };
  const w = window as unknown as { __subscribed?: number; __pushSub?: unknown };
  PushManager.prototype.getSubscription = async () => (w.__pushSub ?? null) as PushSubscription | null;
  PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
    w.__subscribed = (options?.applicationServerKey as Uint8Array | undefined)?.byteLength ?? 0;
    w.__pushSub = { endpoint, toJSON: () => ({ endpoint, keys }), unsubscribe: async () => {
        w.__pushSub = undefined;
        return true;
      } };
    return w.__pushSub as PushSubscription;
  };
};

describe("push that reaches a closed app", () => {
  it("serves a valid manifest, registers the service worker and subscribes this device from the switch (phone)", async () => {
    const member = await apiSignUp();
    const { context, page, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await context.grantPermissions(["notifications"], { origin: baseUrl() });
    const endpoint = `https://push.example/send/e2e-${Date.now().toString(36)}`;
    await context.addInitScript(fakePushManager, { endpoint });
    await loginThroughPage(page, member.email, member.password);

    // The root document links the tenant's manifest; it is valid JSON with what an installable app needs.
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/smp/manifest.webmanifest");
    const response = await fetch(`${baseUrl()}${href}`);
    expect(response.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Record<string, any>;
    expect(manifest).toMatchObject({ name: "Velvet", start_url: "/smp/home", display: "standalone" });
    expect((await fetch(`${baseUrl()}${manifest.icons[0].src}`)).status).toBe(200);

    // After login the member shell registers the service worker with scope /.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${baseUrl()}/`);
    const sw = await fetch(`${baseUrl()}/sw.js`);
    expect(sw.status).toBe(200);
    expect(await sw.text()).toContain('addEventListener("push"');

    // The clear control on the Messages page: on → permission (granted here) → subscription sent to the server.
    await gotoHydrated(page, "/smp/message");
    const toggle = page.getByRole("switch", { name: "Push notifications on this device" });
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("false");
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-checked"), { timeout: 10_000 }).toBe("true");
    await expect.poll(() => page.evaluate(() => (window as unknown as { __subscribed?: number }).__subscribed), { timeout: 10_000 }).toBe(65);
    expect(await page.evaluate(() => localStorage.getItem("enableNotification"))).toBe("true");
    await screenshot(page, "web-push-switch-on-phone");
    // The server holds it for this member's live session: another member replaying the endpoint takes nothing over.
    const other = await apiSignUp();
    const keys = { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) };
    const replay = await apiCall(other, "PUT", `/sns/notifications/source/${other.memberId}`, { sourceKey: endpoint, subscription: { endpoint, keys } });
    expect(replay.body.info).toMatchObject({ subscribed: false });

    // Off removes this device on the server: a second removal of the same endpoint is "not found".
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("false");
    await expect.poll(async () => (await apiCall(member, "DELETE", `/sns/notifications/source/${member.memberId}`, { endpoint })).status, { timeout: 10_000 }).toBe(404);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("a denied permission turns nothing on and says how to allow it", async () => {
    const member = await apiSignUp();
    const { context, page, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(page, member.email, member.password);
    await gotoHydrated(page, "/smp/message");
    // Headless Chromium answers a permission request it was not granted with "denied".
    const toggle = page.getByRole("switch", { name: "Push notifications on this device" });
    await toggle.click();
    await page.getByRole("status").filter({ hasText: "Notifications are blocked" }).waitFor({ timeout: 10_000 });
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    await screenshot(page, "web-push-denied-phone");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
