import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";
import { PhotonImage } from "@cf-wasm/photon/node";

export const baseUrl = () => inject("baseUrl");

/**
 * A request from the test itself to the preview server. A kept-alive connection the server closed while the test
 * waited (a wrangler call takes seconds) fails once with "other side closed"; a new connection works.
 */
export const previewFetch = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init));
const screenshotDir = path.resolve(import.meta.dirname, "../screenshots");

/** System Chromium (stack notes): Playwright's own download does not work on this machine. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

export type Viewport = "phone" | "desktop";
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

/** A fresh context; unexpected console errors are collected so the test can fail on them. */
export async function newPage(browser: Browser, options: { viewport?: Viewport; locale?: string; bypassCSP?: boolean } = {}) {
  const context: BrowserContext = await browser.newContext({
    viewport: VIEWPORTS[options.viewport ?? "phone"],
    locale: options.locale ?? "en-US",
    baseURL: baseUrl(),
    bypassCSP: options.bypassCSP ?? false,
  });
  const page: Page = await context.newPage();
  const consoleErrors: string[] = [];
  // Not the app's errors: a missing map tile or resource (asserted where it matters), and Chromium's note for a socket
  // still opening when the test navigates away (sockets open once partysocket arrives after hydration, so a journey
  // that reloads right after hydration can cut a handshake short; live delivery is asserted by the socket journeys).
  const notAppErrors = /Failed to load resource|tile\.openstreetmap|WebSocket connection to .* failed: Connection closed before receiving a handshake response/;
  page.on("console", (message) => {
    if (message.type() === "error" && !notAppErrors.test(message.text())) consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  return { context, page, consoleErrors };
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

let counter = 0;
export const uniqueEmail = (prefix = "e2e") => `${prefix}.${Date.now().toString(36)}.${++counter}@example.com`;

/** Creates a member through the public API (tests make their own data). */
export async function apiSignUp(project = "SMP", email = uniqueEmail(), password = "correct horse battery") {
  const response = await fetch(`${baseUrl()}/api/v7/public/core/members/${project}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: email, password, adult: true }),
  });
  const body = (await response.json()) as { info: import("../../../worker/contract/session").SessionInfo };
  return { ...body.info, email, password, headers: { "X-Access-Token": body.info.token, "X-Member-ID": body.info.memberId } };
}

let posterHue = 0;
/**
 * A signed-up member who may post (§5/§6: a qualifying avatar), uploaded through the API like My profile does. For
 * journeys that post without being about the posting rules (tests/e2e/posting-rules.e2e.ts is).
 */
export async function apiSignUpPoster(project = "SMP") {
  const member = await apiSignUp(project);
  const reply = await apiUpload(member, avatarJpeg(++posterHue * 17), "avatar", project);
  if (reply.returnCode !== "000000" || !reply.info?.qualify) throw new Error(`avatar upload failed: ${JSON.stringify(reply)}`);
  return member;
}

/** An image uploaded through the media pipeline as My profile does (`type`: avatar, photo…). */
export async function apiUpload(member: { memberId: string; headers: Record<string, string> }, jpeg: Uint8Array, type: string, project = "SMP") {
  const form = new FormData();
  form.set("file", new Blob([jpeg as BlobPart], { type: "image/jpeg" }), `${type}.jpg`);
  form.set("type", type);
  const response = await previewFetch(`${baseUrl()}/api/v7/private/core/files/${project}/${member.memberId}`, { method: "POST", headers: member.headers, body: form });
  return (await response.json()) as { returnCode: string; info?: { url: string; width: number; height: number; qualify: boolean } };
}

/** Logs in through the real login page. */
export async function loginThroughPage(page: Page, email: string, password: string, project = "smp") {
  await gotoHydrated(page, `/${project}/login`);
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/^password$/i).press("Enter");
  await page.waitForURL(`**/${project}/home`);
}

/** Scrolls a page to its end the way a member does, in steps, so blocks that render near the screen render. */
export async function scrollToEnd(page: Page) {
  for (let i = 0; i < 12; i++) {
    await page.mouse.wheel(0, 700);
    await page.waitForTimeout(150);
  }
}

/**
 * Home's photos render, and their code arrives, when they near the screen (README Decisions "Below the fold, the
 * code on demand too"): scrolls to them and waits for the grid or its empty text. The photos' region.
 */
export async function scrollToHomePhotos(page: Page) {
  const photos = page.getByRole("region", { name: "Photos", exact: true });
  await photos.scrollIntoViewIfNeeded();
  await photos.locator(".masonry, p.muted").first().waitFor();
  return photos;
}

/** Navigates and waits until React has hydrated the page. */
export async function gotoHydrated(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

/** Waits (Playwright auto-wait) until the locator shows the text; fails the test on timeout. */
export async function see(locator: import("playwright-core").Locator, text: string | RegExp, timeout = 10_000) {
  await locator.filter({ hasText: text }).first().waitFor({ state: "visible", timeout });
}

/** axe-core on the current page; returns serious/critical violations (context needs `bypassCSP` to inject). */
export async function seriousA11yViolations(page: Page) {
  const axePath = path.resolve(import.meta.dirname, "../../../node_modules/axe-core/axe.min.js");
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * The console line a browser writes when the server refuses a socket caught mid-handshake by the session's end
 * (logout elsewhere, password change, deletion): the refusal is the point, so journeys that end sessions allow it.
 */
export const isSessionEndRefusal = (error: string) => /WebSocket connection to .* failed: Connection closed before receiving a handshake response/.test(error);

/** True when the page scrolls sideways (phones first: it must not). */
export async function hasHorizontalOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

/**
 * Like newPage, for audits: the context bypasses the page CSP so axe-core can be injected
 * (`seriousA11yViolations`). Console errors are collected the same way.
 */
export async function newAuditPage(browser: Browser, options: { viewport?: Viewport; locale?: string } = {}) {
  return newPage(browser, { ...options, bypassCSP: true });
}

/** A square mid-tone JPEG, so the §5 graphic check qualifies it as an avatar. */
export function avatarJpeg(hue: number, size = 120) {
  const pixels = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    const x = i % size;
    pixels.set([80 + (hue % 100), 90 + (x % 60), 140 - (x % 50), 255], i * 4);
  }
  const image = new PhotonImage(pixels, size, size);
  const bytes = image.get_bytes_jpeg(85);
  image.free();
  return bytes;
}
