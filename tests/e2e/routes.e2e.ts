import path from "node:path";
import { md5 } from "js-md5";
import { PhotonImage } from "@cf-wasm/photon/node";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import {
  type apiSignUp, apiSignUpPoster,
  baseUrl,
  gotoHydrated,
  hasHorizontalOverflow,
  launchBrowser,
  loginThroughPage,
  newAuditPage,
  screenshot,
  seriousA11yViolations,
  type Viewport,
  avatarJpeg,
} from "./support/browser";
import { localSql } from "./support/local-api";

/**
 * §2 route walk: every route at a phone and a desktop viewport, as a member and as a visitor. Each
 * page must hydrate, show a main landmark and a heading, pass axe (no serious or critical violation), not scroll
 * sideways and log no console error. Screenshots land in tests/e2e/screenshots/routes-*.png.
 */

const root = path.resolve(import.meta.dirname, "../..");
type Member = Awaited<ReturnType<typeof apiSignUp>> & { memberNo: string };

async function api<T = any>(member: Member, method: string, apiPath: string, body?: unknown | FormData): Promise<T> {
  const headers: Record<string, string> = { ...member.headers };
  if (body !== undefined && !(body instanceof FormData)) headers["Content-Type"] = "application/json";
  const response = await fetch(`${baseUrl()}/api/v7/private${apiPath}`, {
    method,
    headers,
    body: body instanceof FormData ? body : body !== undefined ? JSON.stringify(body) : undefined,
  });
  const envelope = (await response.json()) as { returnCode: string; returnMessage?: string; info: T };
  if (envelope.returnCode !== "000000") throw new Error(`${method} ${apiPath}: ${envelope.returnCode} ${envelope.returnMessage ?? ""}`);
  return envelope.info;
}

async function member(nickname: string, multiGender: number, hue: number): Promise<Member> {
  const m = (await apiSignUpPoster()) as Member;
  await api(m, "PATCH", `/core/profiles/${m.memberId}`, {
    nickname,
    multiGender,
    introduction: `${nickname} likes slow conversations about trust, limits and aftercare.`,
    birthday: "1991-06-12",
    coordinates: "25.03,121.56",
    language: "en",
  });
  const form = new FormData();
  form.set("type", "avatar");
  form.set("file", new Blob([new Uint8Array(avatarJpeg(hue, 160))], { type: "image/jpeg" }), "avatar.jpg");
  await api(m, "POST", `/core/files/SMP/${m.memberId}`, form);
  return m;
}

/** The ids the walk needs, all made through the API by this file. */
type Fixture = {
  a: Member;
  b: Member;
  idMission: number;
  idReviewMission: number;
  idAlbum: number;
  idNote: number;
  idConnection: number;
};
let fx: Fixture;
let browser: Browser;

beforeAll(async () => {
  const stamp = Date.now().toString(36);
  const a = await member(`Route Walker ${stamp}`, 2, 30);
  const b = await member(`Route Partner ${stamp}`, 3, 90);

  // A mission of A's (B's task taken up by A) and one A reviews (A's task taken up and submitted by B).
  const taskOfB = await api(b, "POST", "/sns/tasks", { subject: `Letter ${stamp}`, description: "Write a letter by hand about what trust means to you and read it aloud." });
  const missionOfA = await api(a, "POST", `/sns/tasks/${taskOfB.idTask}/take-up`);
  const taskOfA = await api(a, "POST", "/sns/tasks", { subject: `Posture ${stamp}`, description: "Hold a calm, upright posture for ten minutes and note how it changed your breathing." });
  const missionOfB = await api(b, "POST", `/sns/tasks/${taskOfA.idTask}/take-up`);
  await api(b, "PUT", "/sns/missions", { id: missionOfB.idMission, description: "Ten minutes, steady breathing, shoulders down.", remark: "done" });
  await api(b, "POST", "/sns/missions/submit", { id: missionOfB.idMission });

  const album = await api(a, "POST", "/sns/albums", { title: `Evenings ${stamp}`, secretKey: "quiet key" });
  const note = await api(a, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${a.memberId}`, { message: `Route walk hello ${stamp}`, requestId: `walk${stamp}pub` });
  await api(b, "POST", `/sns/chatrooms/${directChatroomId(a.memberNo, b.memberNo)}/messages/${b.memberId}`, { message: "Hello from B", requestId: `walk${stamp}dm` });
  const connection = await api(a, "POST", "/sns/connections", { memberNo: b.memberNo });
  // §2 basement: kycStatus 1 members only.
  localSql(`update profiles set kyc_status = 1 where member_id = '${a.memberId}'`);

  fx = {
    a,
    b,
    idMission: missionOfA.idMission,
    idReviewMission: missionOfB.idMission,
    idAlbum: album.idAlbum,
    idNote: note.idChatroomMessage,
    idConnection: connection.idConnection,
  };
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

type RouteCase = {
  name: string;
  url: () => string;
  /** Where the browser must end up (pathname), when the route redirects. */
  lands?: string | (() => string);
  /** An overlay the route opens (checked visible, audited with the page). */
  dialog?: string;
  /** The bottom navigation must be shown. */
  nav?: boolean;
};

const memberRoutes: RouteCase[] = [
  { name: "root", url: () => "/", lands: "/smp/profiles" },
  { name: "project-index", url: () => "/smp", lands: "/smp/profiles" },
  { name: "home", url: () => "/smp/home" },
  { name: "home-roulette", url: () => "/smp/home?showRoulette=true", dialog: "Training roulette" },
  { name: "profile", url: () => "/smp/profile" },
  { name: "profiles", url: () => "/smp/profiles" },
  { name: "all-profiles", url: () => "/smp/all-profiles" },
  { name: "photo-grid", url: () => "/smp/photo-grid" },
  { name: "avatar-wall", url: () => "/smp/avatar-wall" },
  { name: "share", url: () => `/smp/share/${fx.b.memberNo}` },
  { name: "s-query", url: () => `/smp/s?c=${fx.b.memberNo}` },
  { name: "s-sharing-code", url: () => `/smp/s?sharingCode=${fx.b.memberNo}` },
  { name: "s-bare", url: () => "/smp/s", lands: "/smp/profiles" },
  { name: "qr", url: () => "/smp/qr" },
  { name: "message", url: () => "/smp/message" },
  { name: "guestbook", url: () => "/smp/guestbook" },
  { name: "public-chat", url: () => `/smp/public-chat/${PUBLIC_CHATROOM_ID}` },
  { name: "notification", url: () => "/smp/notification" },
  { name: "notification-chat", url: () => `/smp/notification/${directChatroomId(fx.a.memberNo, fx.b.memberNo)}` },
  { name: "notes", url: () => `/smp/notes/${fx.idNote}` },
  { name: "chatroom-personal", url: () => `/smp/chatroom/${md5(fx.a.memberNo)}` },
  { name: "chatroom-connection", url: () => `/smp/chatroom/${fx.idConnection}` },
  { name: "chatroom-pair", url: () => `/smp/chatroom/${fx.a.memberNo}/${fx.b.memberNo}` },
  { name: "chatroom-pair-connection", url: () => `/smp/chatroom/${fx.a.memberNo}/${fx.b.memberNo}/${fx.idConnection}` },
  { name: "task-0", url: () => "/smp/task/0" },
  { name: "task-1", url: () => "/smp/task/1" },
  { name: "task-2", url: () => "/smp/task/2" },
  { name: "task-bad-tab", url: () => "/smp/task/7", lands: "/smp/task/0" },
  { name: "mission", url: () => `/smp/mission/${fx.idMission}` },
  { name: "review", url: () => `/smp/review/${fx.idReviewMission}` },
  { name: "albums", url: () => "/smp/albums" },
  { name: "album", url: () => `/smp/albums/${fx.idAlbum}` },
  { name: "album-edit", url: () => `/smp/albums/${fx.idAlbum}/edit?secretKey=quiet%20key` },
  { name: "market", url: () => "/smp/market" },
  { name: "market-master", url: () => `/smp/market/${fx.a.memberNo}` },
  { name: "ai-room", url: () => "/smp/ai-room" },
  { name: "basement", url: () => "/basement" },
  { name: "not-found", url: () => "/smp/no-such-page" },
  // A missing id inside the member frame: a 404 that keeps the bottom navigation (no dead end).
  { name: "mission-missing", url: () => "/smp/mission/987654321", nav: true },
  { name: "chatroom-bad-key", url: () => "/smp/chatroom/not-a-room", nav: true },
  { name: "bad-project-long", url: () => "/smpx/home", lands: "/smp/profiles" },
  { name: "bad-project-digits", url: () => "/s1p/home", lands: "/smp/profiles" },
];

const visitorRoutes: RouteCase[] = [
  { name: "login", url: () => "/smp/login" },
  { name: "registration", url: () => "/smp/registration" },
  { name: "reset-password", url: () => "/smp/reset-password" },
  { name: "profiles", url: () => "/smp/profiles" },
  { name: "all-profiles", url: () => "/smp/all-profiles" },
  { name: "photo-grid", url: () => "/smp/photo-grid" },
  { name: "avatar-wall", url: () => "/smp/avatar-wall" },
  { name: "share", url: () => `/smp/share/${fx.a.memberNo}` },
  { name: "s-query", url: () => `/smp/s?c=${fx.a.memberNo}` },
  { name: "notes", url: () => `/smp/notes/${fx.idNote}` },
  { name: "album", url: () => `/smp/albums/${fx.idAlbum}` },
  { name: "not-found", url: () => "/smp/no-such-page" },
  // §2: private pages without a member id or token go to login.
  ...["home", "profile", "message", "guestbook", "qr", "notification", "market", "ai-room", "task/0", "albums"].map((p) => ({ name: `${p.replace("/", "-")}-to-login`, url: () => `/smp/${p}`, lands: "/smp/login" })),
  { name: "mission-to-login", url: () => `/smp/mission/${fx.idMission}`, lands: "/smp/login" },
  { name: "review-to-login", url: () => `/smp/review/${fx.idReviewMission}`, lands: "/smp/login" },
  { name: "album-edit-to-login", url: () => `/smp/albums/${fx.idAlbum}/edit`, lands: "/smp/login" },
  { name: "public-chat-to-login", url: () => `/smp/public-chat/${PUBLIC_CHATROOM_ID}`, lands: "/smp/login" },
  { name: "chatroom-to-login", url: () => `/smp/chatroom/${md5("1")}`, lands: "/smp/login" },
  { name: "market-master-to-login", url: () => `/smp/market/${fx.a.memberNo}`, lands: "/smp/login" },
  { name: "basement-to-login", url: () => "/basement", lands: "/smp/login" },
];

type Session = { context: BrowserContext; page: Page; consoleErrors: string[] };

/** Visits one route and applies every check; returns the problems found (empty when the page is fine). */
async function walk(session: Session, viewport: Viewport, who: string, route: RouteCase) {
  const { page, consoleErrors } = session;
  consoleErrors.length = 0;
  await gotoHydrated(page, route.url());
  // Let after-hydration data (client loads, sockets) settle before judging the page.
  await page.waitForLoadState("networkidle", { timeout: 8_000 }).catch(() => undefined);
  const problems: string[] = [];
  const expected = typeof route.lands === "function" ? route.lands() : route.lands;
  if (expected && new URL(page.url()).pathname !== expected) problems.push(`landed on ${page.url()}, expected ${expected}`);
  await page.locator("main").first().waitFor({ state: "visible", timeout: 10_000 }).catch(() => problems.push("no visible main landmark"));
  await page
    .locator("h1, h2")
    .filter({ visible: true })
    .first()
    .waitFor({ state: "visible", timeout: 5_000 })
    .catch(() => problems.push("no visible heading"));
  if (route.dialog) {
    await page
      .getByRole("dialog", { name: route.dialog })
      .waitFor({ state: "visible", timeout: 5_000 })
      .catch(() => problems.push(`dialog “${route.dialog}” not shown`));
  }
  if (route.nav) {
    await page
      .getByRole("navigation", { name: "Main navigation" })
      .waitFor({ state: "visible", timeout: 5_000 })
      .catch(() => problems.push("no bottom navigation"));
  }
  const violations = await seriousA11yViolations(page);
  problems.push(...violations.map((v) => `axe ${v}`));
  if (await hasHorizontalOverflow(page)) {
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
    );
    problems.push(`horizontal overflow: ${wide.join(", ")}`);
  }
  problems.push(...consoleErrors.map((e) => `console: ${e}`));
  await screenshot(page, `routes-${who}-${viewport}-${route.name}`);
  return problems;
}

for (const viewport of ["phone", "desktop"] as const) {
  describe(`every route as a member (${viewport})`, () => {
    let session: Session;
    beforeAll(async () => {
      session = await newAuditPage(browser, { viewport });
      await loginThroughPage(session.page, fx.a.email, fx.a.password);
    }, 60_000);
    afterAll(async () => {
      await session?.context.close();
    });
    for (const route of memberRoutes) {
      it(route.name, async () => {
        expect(await walk(session, viewport, "member", route)).toEqual([]);
      });
    }
  });

  describe(`every public route as a visitor (${viewport})`, () => {
    let session: Session;
    beforeAll(async () => {
      session = await newAuditPage(browser, { viewport });
    });
    afterAll(async () => {
      await session?.context.close();
    });
    for (const route of visitorRoutes) {
      it(route.name, async () => {
        expect(await walk(session, viewport, "visitor", route)).toEqual([]);
      });
    }
  });
}

/** Whether keyboard focus sits inside the open dialog. */
const focusInDialog = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest("[role=dialog],[role=alertdialog]")));

/** Tabs forward and backward through an open dialog: focus never leaves it. */
/** Opens a dialog from `opener` with Enter: focus stays inside, Escape closes it, focus goes back to the opener. */
async function expectDialogKeyboardCycle(page: Page, opener: Locator) {
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  await expectFocusTrapped(page);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  // Radix restores focus on the next tick.
  await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
}

async function expectFocusTrapped(page: Page) {
  expect(await focusInDialog(page)).toBe(true);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await focusInDialog(page)).toBe(true);
  }
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusInDialog(page)).toBe(true);
  }
}

describe("keyboard and focus", () => {
  it("the share dialog on my profile traps focus, closes on Escape and gives focus back to its opener", async () => {
    const session = await newAuditPage(browser, { viewport: "phone" });
    const { page } = session;
    await loginThroughPage(page, fx.a.email, fx.a.password);
    await gotoHydrated(page, "/smp/profile");
    await expectDialogKeyboardCycle(page, page.getByRole("button", { name: "Share" }).first());
    expect(session.consoleErrors).toEqual([]);
    await session.context.close();
  });

  it("the visitor login dialog on the avatar wall traps focus, closes on Escape and gives focus back", async () => {
    const session = await newAuditPage(browser, { viewport: "phone" });
    const { page } = session;
    await gotoHydrated(page, "/smp/avatar-wall");
    await expectDialogKeyboardCycle(page, page.getByRole("button", { name: /^Avatar of / }).first());
    expect(session.consoleErrors).toEqual([]);
    await session.context.close();
  });

  it("reaches the bottom navigation by keyboard and opens a tab with Enter", async () => {
    const session = await newAuditPage(browser, { viewport: "phone" });
    const { page } = session;
    await loginThroughPage(page, fx.a.email, fx.a.password);
    await gotoHydrated(page, "/smp/task/0");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    const labels = ["Market", "Chats", "Home", "Inbox", "Profile"];
    // Tab from the top of the page until focus lands in the bottom navigation, then walk its tabs in order.
    await page.locator("body").focus();
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await nav.evaluate((el) => el.contains(document.activeElement));
    }
    expect(reached).toBe(true);
    const focusedName = () => page.evaluate(() => (document.activeElement as HTMLElement).innerText.trim());
    expect(await focusedName()).toContain(labels[0]);
    // A visible focus indicator.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe("none");
    for (const label of labels.slice(1)) {
      await page.keyboard.press("Tab");
      expect(await focusedName()).toContain(label);
    }
    // Back to Home and open it.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    expect(await focusedName()).toContain("Home");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/smp/home");
    await expect.poll(() => nav.getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page");
    expect(session.consoleErrors).toEqual([]);
    await session.context.close();
  });
});

/** A noisy JPEG of a few hundred kilobytes, so a throttled upload takes long enough to watch its progress. */
function noisyJpeg(size: number) {
  const pixels = new Uint8Array(size * size * 4);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    pixels[i] = i % 4 === 3 ? 255 : 60 + ((seed >>> 16) % 140);
  }
  const image = new PhotonImage(pixels, size, size);
  const bytes = image.get_bytes_jpeg(95);
  image.free();
  return Buffer.from(bytes);
}

describe("scroll-to-top and upload progress", () => {
  it("shows scroll-to-top after 200 px, above the bottom navigation; Enter goes back to the top and focuses the heading", async () => {
    const session = await newAuditPage(browser, { viewport: "phone" });
    const { page } = session;
    await loginThroughPage(page, fx.a.email, fx.a.password);
    await gotoHydrated(page, "/smp/home");
    const button = page.getByRole("button", { name: "Back to top" });
    expect(await button.count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 150));
    await page.waitForTimeout(200);
    expect(await button.count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 700));
    await button.waitFor({ state: "visible" });
    const nav = await page.getByRole("navigation", { name: "Main navigation" }).boundingBox();
    const box = await button.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(nav!.y);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(root, "tests/e2e/screenshots/routes-member-phone-scroll-to-top.png") });
    await button.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await button.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    expect(session.consoleErrors).toEqual([]);
    await session.context.close();
  });

  it("shows a progress bar while a profile photo uploads", async () => {
    const session = await newAuditPage(browser, { viewport: "phone" });
    const { page } = session;
    await loginThroughPage(page, fx.a.email, fx.a.password);
    await gotoHydrated(page, "/smp/profile");
    // Chromium's network emulation slows the upload, so XMLHttpRequest reports progress in steps.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 150 * 1024 });
    await page.getByLabel("Photo image file").setInputFiles({ name: "evening.jpg", mimeType: "image/jpeg", buffer: noisyJpeg(700) });
    const bar = page.getByRole("progressbar", { name: "Upload progress" });
    await bar.waitFor({ state: "visible", timeout: 10_000 });
    await expect.poll(async () => Number(await bar.getAttribute("value")), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await bar.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(root, "tests/e2e/screenshots/routes-member-phone-upload-progress.png") });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await bar.waitFor({ state: "detached", timeout: 30_000 });
    expect(session.consoleErrors).toEqual([]);
    await session.context.close();
  });
});
