import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { apiSignUp, apiSignUpPoster, baseUrl, gotoHydrated, isSessionEndRefusal, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";

/**
 * In the browser: security headers on pages, the CSP holding with hydration, member-written HTML
 * rendered as inert text, sockets upgrading through the same worker, the session cookie's attributes,
 * and the privacy controls (export, deletion).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const XSS_NICK = `<img src=x onerror="window.__xss=1">`;
const XSS_INTRO = `<script>window.__xss=2</script><b>bold?</b> and a long enough introduction to show.`;
const XSS_CHAT = `<svg onload="window.__xss=3"></svg><a href="javascript:window.__xss=4">click</a>`;

async function api(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${baseUrl()}/api/v7${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { "Content-Type": "application/json", ...(init.headers ?? {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as { returnCode: string; info: any } };
}

/** Records CSP violations from the first script on (init scripts run outside the page's CSP). */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { __csp: string[] }).__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`));
  });
}

describe("pages", () => {
  it("load hashed assets cached for a year, while the HTML and the service worker revalidate (README \"Browser caching\")", async () => {
    const { page, context } = await newPage(browser);
    const assets: { url: string; cacheControl: string }[] = [];
    page.on("response", (r) => {
      if (new URL(r.url()).pathname.startsWith("/assets/")) assets.push({ url: r.url(), cacheControl: r.headers()["cache-control"] ?? "" });
    });
    const response = await page.goto("/smp/login");
    await page.waitForSelector("html[data-hydrated]");
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) expect(asset.cacheControl, asset.url).toBe("public, max-age=31536000, immutable");
    // One member's view: revalidated on every visit, kept by no shared cache.
    expect(response!.headers()["cache-control"]).toBe("private, no-cache");
    const worker = await fetch(`${baseUrl()}/sw.js`);
    expect(worker.headers.get("cache-control")).not.toMatch(/immutable|max-age=[1-9]/);
    await context.close();
  });

  it("list the page's stylesheets ahead of its module preloads, and in a Link header (README Decisions \"Stylesheets before scripts\")", async () => {
    const response = await fetch(`${baseUrl()}/smp/login`);
    const html = await response.text();
    const head = html.slice(0, html.indexOf("</head>"));
    const stylesheets = [...head.matchAll(/<link [^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
    expect(stylesheets.length).toBeGreaterThan(0);
    const firstModule = head.indexOf('rel="modulepreload"');
    for (const href of stylesheets) {
      const preload = head.indexOf(`<link rel="preload" href="${href}" as="style"`);
      expect(preload, href).toBeGreaterThan(-1);
      expect(preload, href).toBeLessThan(firstModule);
      expect(response.headers.get("link") ?? "").toContain(`<${href}>; rel=preload; as=style`);
    }
  });

  it("carry CSP with a per-response nonce (no unsafe-inline scripts), HSTS, nosniff, frame-ancestors none and a referrer policy", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await watchCsp(page);
    const response = await page.goto("/smp/login");
    await page.waitForSelector("html[data-hydrated]");
    const headers = response!.headers();
    const csp = headers["content-security-policy"] ?? "";
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? "";
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=_-]+'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(headers["strict-transport-security"]).toMatch(/max-age=\d{7,}/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");

    // Every inline script carries this response's nonce, and hydration ran without a single violation.
    const nonce = scriptSrc.match(/'nonce-([^']+)'/)![1];
    const inline = await page.evaluate(() => [...document.querySelectorAll("script:not([src])")].map((s) => (s as HTMLScriptElement).nonce));
    expect(inline.length).toBeGreaterThan(0);
    for (const n of inline) expect(n).toBe(nonce);
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    // A second response gets a different nonce.
    const again = await fetch(`${baseUrl()}/smp/login`);
    expect(again.headers.get("content-security-policy")).not.toContain(nonce);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("refuse to be framed", async () => {
    const { page, context } = await newPage(browser);
    await page.setContent(`<iframe id="f" src="${baseUrl()}/smp/login" width="300" height="300"></iframe>`);
    await page.waitForTimeout(1500);
    const framed = page.frames().find((f) => f.url().includes("/smp/login"));
    const loaded = framed ? await framed.evaluate(() => Boolean(document.querySelector("html[data-hydrated]"))).catch(() => false) : false;
    expect(loaded).toBe(false);
    await context.close();
  });
});

describe("member-written text", () => {
  it("renders as text on the public profile, the note page and the public chat — never as HTML", async () => {
    const author = await apiSignUpPoster();
    const headers = { "X-Access-Token": author.token, "X-Member-ID": author.memberId };
    const patched = await api(`/private/core/profiles/${author.memberId}`, { method: "PATCH", headers, body: { nickname: XSS_NICK, introduction: XSS_INTRO } });
    expect(patched.body.returnCode).toBe("000000");
    const sent = await api(`/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { headers, body: { message: XSS_CHAT, requestId: `xss-${author.memberNo}` } });
    expect(sent.body.returnCode).toBe("000000");

    const viewer = await apiSignUp();
    const { page, context } = await newPage(browser, { viewport: "desktop" });
    await watchCsp(page);
    await loginThroughPage(page, viewer.email, viewer.password);

    await gotoHydrated(page, `/smp/share/${author.memberNo}`);
    await see(page.locator("body"), "<img src=x");
    await gotoHydrated(page, `/smp/notes/${sent.body.info.idChatroomMessage}`);
    await see(page.locator("body"), "<svg onload=");
    await screenshot(page, "security-01-note-as-text");
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await see(page.locator("body"), "<svg onload=");
    await screenshot(page, "security-02-chat-as-text");
    // The markup never became elements, and nothing ran.
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"], svg[onload], a[href^="javascript:"]').count()).toBe(0);
    await context.close();
  });
});

describe("session cookie and sockets", () => {
  it("the cookie is HttpOnly and SameSite=Lax (not Secure on local http); the page's socket upgrades", async () => {
    const member = await apiSignUp();
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, member.email, member.password);
    const cookie = (await context.cookies()).find((c) => c.name === "velvet_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.secure).toBe(false);
    expect(await page.evaluate(() => document.cookie)).not.toContain("velvet_session");

    const opened = await page.evaluate(async () => {
      const headers = { "X-Access-Token": localStorage.getItem("token")!, "X-Member-ID": localStorage.getItem("memberId")!, "Content-Type": "application/json" };
      const reply = (await (await fetch("/api/v7/private/core/sessions/ticket", { method: "POST", headers, body: JSON.stringify({ audience: "socket" }) })).json()) as { info: { ticket: string } };
      // The ticket goes in Sec-WebSocket-Protocol (the browser's only socket header), never in the URL.
      const url = `${location.origin.replace(/^http/, "ws")}/parties/member-inbox/SMP~${localStorage.getItem("memberId")}`;
      return new Promise<string>((resolve) => {
        const socket = new WebSocket(url, ["velvet.v1", `velvet.ticket.${reply.info.ticket}`]);
        socket.onopen = () => {
          socket.close();
          resolve("open");
        };
        socket.onerror = () => resolve("error");
      });
    });
    expect(opened).toBe("open");

    // A cross-site form post with the cookie is refused (Origin check), and changes nothing.
    const crossSite = await fetch(`${baseUrl()}/api/v7/private/core/sessions/expire`, {
      method: "POST",
      headers: { Cookie: `velvet_session=${member.memberId}.${member.token}`, Origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect((await api("/private/core/sessions/ticket", { headers: { "X-Access-Token": member.token, "X-Member-ID": member.memberId }, body: {} })).status).toBe(200);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe("privacy controls in Settings", () => {
  it("download the member's data as JSON, then delete the account with the password", async () => {
    const member = await apiSignUp();
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, member.email, member.password);
    await gotoHydrated(page, "/smp/settings");
    const section = page.getByRole("region", { name: "Your data" });
    await section.scrollIntoViewIfNeeded();
    const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("button", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toBe(`velvet-smp-${member.memberNo}.json`);
    const exported = JSON.parse(await (await import("node:fs/promises")).readFile((await download.path())!, "utf8"));
    expect(exported.memberId).toBe(member.memberId);
    expect(JSON.stringify(exported)).not.toContain("password_hash");

    await section.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete your account?" });
    await dialog.getByLabel("Password").fill("not my password");
    await dialog.getByRole("button", { name: "Delete for good" }).click();
    await see(dialog, "Current password is incorrect");
    await screenshot(page, "security-03-delete-wrong-password");
    await dialog.getByLabel("Password").fill(member.password);
    await dialog.getByRole("button", { name: "Delete for good" }).click();
    await page.waitForURL("**/smp/login");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    const again = await api("/public/core/sessions/SMP", { body: { username: member.email, password: member.password } });
    expect(again.status).toBe(401);
    // Deleting the account ends its session: a shell socket caught mid-handshake is refused, as it should be.
    expect(consoleErrors.filter((e) => !/401|403/.test(e) && !isSessionEndRefusal(e))).toEqual([]);
    await context.close();
  });
});
