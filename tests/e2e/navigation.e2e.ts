import { md5 } from "js-md5";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { apiSignUpPoster, gotoHydrated, launchBrowser, loginThroughPage, newAuditPage, newPage, screenshot, see, seriousA11yViolations } from "./support/browser";
import { apiCall, localSql, type Account } from "./support/local-api";

/**
 * Navigation (README Decisions "Visitors and navigation"): every §2 screen a member opens without an item id is at
 * most two taps from home on a phone; a visitor's pages say how to join, member-only controls open the login dialog,
 * and nothing in the background fails; desktop widths use a side navigation instead of the stretched bottom bar.
 */

let browser: Browser;
let member: Account & { memberNo: string };
let idNote: number;
let idAlbum: number;
const nickname = `Navigator ${Date.now().toString(36)}`;

beforeAll(async () => {
  // It posts a note, so it needs a qualifying avatar (README Decisions "Posting rules").
  member = (await apiSignUpPoster()) as Account & { memberNo: string };
  await apiCall(member, "PATCH", `/core/profiles/${member.memberId}`, { nickname, multiGender: 2, introduction: "Finds every page.", language: "en" });
  idNote = (await apiCall(member, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${member.memberId}`, { message: "A note for visitors", requestId: `nav-${Date.now()}` })).body.info.idChatroomMessage;
  idAlbum = (await apiCall(member, "POST", "/sns/albums", { title: "Open album" })).body.info.idAlbum;
  // §6: kycStatus 9 sees the AI room entry and (as a verified member) the basement entry on home.
  localSql(`update profiles set kyc_status = 9 where member_id = '${member.memberId}'`);
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
/** Viewport-only pictures (a sheet or dialog over the page), beside the full-page ones `screenshot` takes. */
const shots = path.join(import.meta.dirname, "screenshots");

describe("a member on a phone", () => {
  it("reaches every §2 screen from home in at most two taps", async () => {
    const { page, context, consoleErrors } = await newAuditPage(browser, { viewport: "phone" });
    await loginThroughPage(page, member.email, member.password);
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    expect(await page.locator(".side-nav").isVisible()).toBe(false);

    /** From home: one tap on `first`, then (optionally) one on `second`; the browser must land on `expected`. */
    async function reach(expected: string, first: (page: Page) => Locator, second?: (page: Page) => Locator) {
      await gotoHydrated(page, "/smp/home");
      await first(page).click();
      if (second) await second(page).click();
      await page.waitForURL((url) => url.pathname === expected, { timeout: 15_000 });
      expect(pathOf(page)).toBe(expected);
    }

    // One tap: the bottom tabs (§2 market, social = the chat list, message = guestbook and notifications, profile).
    await reach("/smp/market", () => nav.getByRole("link", { name: "Market" }));
    await reach("/smp/notification", () => nav.getByRole("link", { name: /^Chats/ }));
    await reach("/smp/message", () => nav.getByRole("link", { name: /^Inbox/ }));
    await reach("/smp/profile", () => nav.getByRole("link", { name: "Profile" }));
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Home" }).click();
    await page.waitForURL("**/smp/home");
    // One tap: home's entries (§6 kycStatus 9: AI room and basement).
    await reach("/smp/ai-room", (p) => p.getByRole("link", { name: /AI training room/ }));
    await reach("/basement/", (p) => p.getByRole("link", { name: /Enter the basement/ }));

    // Two taps: More, then the screen.
    const more = (name: string) => [() => nav.getByRole("button", { name: "More" }), (p: Page) => p.getByRole("dialog", { name: "All of Velvet" }).getByRole("link", { name, exact: true })] as const;
    const twoTaps: [string, string][] = [
      ["/smp/profiles", "Feed"],
      ["/smp/all-profiles", "All members"],
      ["/smp/photo-grid", "Photo grid"],
      ["/smp/avatar-wall", "Avatar wall"],
      [`/smp/public-chat/${PUBLIC_CHATROOM_ID}`, "Public chat"],
      [`/smp/chatroom/${md5(member.memberNo)}`, "My chatroom"],
      ["/smp/guestbook", "Guestbook"],
      ["/smp/task/0", "All tasks"],
      ["/smp/task/1", "My tasks"],
      ["/smp/task/2", "Tasks to review"],
      ["/smp/albums", "Albums"],
      ["/smp/qr", "My QR code"],
    ];
    for (const [expected, name] of twoTaps) await reach(expected, ...more(name));

    // The sheet itself: audited, and its Settings entry leads to the settings page.
    await gotoHydrated(page, "/smp/home");
    await nav.getByRole("button", { name: "More" }).click();
    const sheet = page.getByRole("dialog", { name: "All of Velvet" });
    await sheet.waitFor();
    expect(await sheet.getByRole("link", { name: "Settings" }).getAttribute("href")).toBe("/smp/settings");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, "navigation-phone-more.png") });
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
    await screenshot(page, "navigation-phone-home");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe("a visitor", () => {
  it("sees the login bar on every public page, gets the login dialog with Sign up on Follow, and no call fails", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });
    const failed: string[] = [];
    const sockets: string[] = [];
    page.on("response", (response) => {
      const status = response.status();
      if (status === 401 || status === 403 || status >= 500) failed.push(`${status} ${response.request().method()} ${response.url()}`);
    });
    page.on("websocket", (socket) => sockets.push(socket.url()));

    const publicPages = [
      "/smp/profiles",
      "/smp/all-profiles",
      "/smp/photo-grid",
      "/smp/avatar-wall",
      `/smp/share/${member.memberNo}`,
      `/smp/s?c=${member.memberNo}`,
      `/smp/notes/${idNote}`,
      `/smp/albums/${idAlbum}`,
    ];
    for (const url of publicPages) {
      await gotoHydrated(page, url);
      const bar = page.getByRole("banner", { name: "Log in or sign up" });
      await bar.getByRole("link", { name: "Log in" }).waitFor({ state: "visible" });
      await bar.getByRole("link", { name: "Sign up" }).waitFor({ state: "visible" });
      // Let after-hydration calls (and any socket) happen before judging.
      await page.waitForLoadState("networkidle", { timeout: 8_000 }).catch(() => undefined);
    }

    await gotoHydrated(page, `/smp/share/${member.memberNo}`);
    await screenshot(page, "navigation-visitor-phone-profile");
    await page.getByRole("button", { name: `Follow ${nickname}` }).click();
    const dialog = page.getByRole("dialog", { name: "For members" });
    await see(dialog, "Log in or sign up to follow members");
    await dialog.getByRole("link", { name: "Sign up" }).waitFor({ state: "visible" });
    await dialog.getByRole("link", { name: "Log in" }).waitFor({ state: "visible" });
    await page.screenshot({ path: path.join(shots, "navigation-visitor-phone-follow.png") });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    // Leave a message is member-only too: the same dialog, and Sign up leads to registration.
    await page.getByRole("button", { name: "Leave a message" }).click();
    await page.getByRole("dialog", { name: "For members" }).getByRole("link", { name: "Sign up" }).click();
    await page.waitForURL("**/smp/registration");

    expect(failed).toEqual([]);
    expect(sockets).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe("desktop widths", () => {
  it("show a side navigation and hide the bottom bar; the page uses the width beside it", async () => {
    const { page, context, consoleErrors } = await newAuditPage(browser, { viewport: "desktop" });
    await loginThroughPage(page, member.email, member.password);
    const side = page.getByRole("navigation", { name: "Main navigation" });
    await side.waitFor({ state: "visible" });
    expect(await page.locator(".side-nav").isVisible()).toBe(true);
    expect(await page.locator(".bottom-nav").isVisible()).toBe(false);
    const box = (await side.boundingBox())!;
    expect(box.x).toBe(0);
    expect(box.height).toBeGreaterThanOrEqual(790);
    expect(box.width).toBeLessThan(300);
    const main = (await page.locator("main").first().boundingBox())!;
    expect(main.x).toBeGreaterThanOrEqual(box.width);
    expect(main.width).toBeGreaterThan(900);
    await screenshot(page, "navigation-desktop-home");

    // Every screen of the phone's More sheet is one click away here.
    await side.getByRole("link", { name: "Tasks to review" }).click();
    await page.waitForURL("**/smp/task/2");
    await side.getByRole("link", { name: /^Chats/ }).click();
    await page.waitForURL("**/smp/notification");
    await expect.poll(() => side.getByRole("link", { name: /^Chats/ }).getAttribute("aria-current")).toBe("page");
    // Audited here rather than on home, whose content depends on what other journeys left in this run's data.
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "navigation-desktop-chats");
    expect(consoleErrors).toEqual([]);
    await context.close();

    // A visitor at desktop width: the side navigation offers the public pages, Log in and Sign up.
    const visitor = await newPage(browser, { viewport: "desktop" });
    await gotoHydrated(visitor.page, `/smp/share/${member.memberNo}`);
    const visitorSide = visitor.page.getByRole("navigation", { name: "Main navigation" });
    await visitorSide.getByRole("link", { name: "Sign up" }).waitFor({ state: "visible" });
    expect(await visitor.page.locator(".bottom-nav").isVisible()).toBe(false);
    await screenshot(visitor.page, "navigation-desktop-visitor-profile");
    expect(visitor.consoleErrors).toEqual([]);
    await visitor.context.close();
  });
});
