import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, scrollToHomePhotos, see } from "./support/browser";

const root = path.resolve(import.meta.dirname, "../..");
const DEMO = { email: "demo@velvet.example", password: "velvet-demo" };

let browser: Browser;
beforeAll(async () => {
  // The dashboard is shown filled from the demo seed: seed this run's fresh state (the preview server has
  // not opened D1 or R2 yet; it only answered the readiness probe, which touches neither).
  const stateDir = path.join(root, `.wrangler/e2e-state-${process.env.E2E_PORT ?? 4317}`, "v3");
  execFileSync(path.join(root, "node_modules/.bin/node"), ["scripts/seed-local.mjs"], { cwd: root, env: { ...process.env, VELVET_STATE_DIR: stateDir }, stdio: "pipe" });
  // The seed gives the demo member a stored language; this journey reads English, so the member picks it.
  const login = await fetch(`${baseUrl()}/api/v7/public/core/sessions/SMP`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: DEMO.email, password: DEMO.password }),
  });
  const { info } = (await login.json()) as { info: { token: string; memberId: string } };
  const patched = await fetch(`${baseUrl()}/api/v7/private/core/profiles/${info.memberId}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json", "X-Access-Token": info.token, "X-Member-ID": info.memberId },
    body: JSON.stringify({ language: "en" }),
  });
  expect(patched.status).toBe(200);
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

describe("home dashboard journey", () => {
  it("shows the seeded dashboard, runs a 10-photo review until the prompt goes, sends feedback and spins the roulette", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, DEMO.email, DEMO.password);
    await page.waitForSelector("html[data-hydrated]");
    // Home's tenant lists are kept per isolate for up to 10 s (README "Home lists are kept per tenant for a few
    // seconds"): the previous file's home may have read them before this file's seed. Reload until the seed shows.
    await expect
      .poll(
        async () => {
          await gotoHydrated(page, "/smp/home");
          return (await scrollToHomePhotos(page)).getByRole("listitem").count();
        },
        { timeout: 20_000, interval: 2_000 },
      )
      .toBe(10);

    await see(page.getByRole("heading", { level: 1 }), "Velvet Demo");
    await see(page.getByRole("region", { name: /flame owner/i }), /holds the flame|You hold the flame/);
    await see(page.getByRole("region", { name: /today's reminders/i }), "Munch on Saturday");
    const tiles = page.getByRole("navigation", { name: "Your numbers" });
    await see(tiles, "Guestbook");
    await see(tiles, "M coin");
    await see(page.getByRole("link", { name: /AI training room/ }), "AI training room");
    for (const strip of ["Latest online", "Newbies", "Most visits", "Recent visitors", "Hot profiles", "Hot discussions"]) {
      await page.getByRole("heading", { name: strip, exact: true }).waitFor();
    }
    expect(await page.getByRole("region", { name: "Hot profiles" }).getByRole("link").count()).toBeGreaterThan(5);
    expect(await page.getByRole("region", { name: "Photos" }).getByRole("listitem").count()).toBe(10);
    // A note card's link is named by exactly the text it shows, the nickname (WCAG 2.5.3: no label that differs from
    // what is shown), is described by the introduction, and a tap anywhere on the card opens the profile.
    const notes = page.getByRole("region", { name: "Hot discussions" });
    await notes.scrollIntoViewIfNeeded();
    const firstNote = notes.getByRole("link").first();
    const shownName = (await firstNote.textContent())?.trim() ?? "";
    expect(shownName).toBeTruthy();
    expect(await firstNote.evaluate((a) => a.hasAttribute("aria-label") || a.hasAttribute("aria-labelledby"))).toBe(false);
    await notes.getByRole("link", { name: shownName, exact: true }).first().waitFor();
    const description = await firstNote.evaluate((a) => document.getElementById(a.getAttribute("aria-describedby")!)?.textContent ?? "");
    expect(description.length).toBeGreaterThan(0);
    await notes.locator(".note-text").first().scrollIntoViewIfNeeded();
    // Read the point and the card's own link in one frame: blocks drawn on demand around the section can move it
    // between two separate reads.
    const hit = await notes.locator(".note-card").first().evaluate((card) => {
      const box = card.querySelector(".note-text")!.getBoundingClientRect();
      return {
        hit: document.elementFromPoint(box.x + 5, box.y + 5)?.closest("a")?.getAttribute("href"),
        own: card.querySelector("a")?.getAttribute("href"),
      };
    });
    expect(hit.own).toBeTruthy();
    expect(hit.hit).toBe(hit.own);
    await notes.screenshot({ path: path.join(root, "tests/e2e/screenshots/home-06-notes-phone.png") });
    const coinsBefore = Number(await tiles.getByRole("link", { name: /M coin/ }).locator(".tile-value").innerText());
    // No horizontal scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "home-01-dashboard-phone");

    // Recent visitors drawer, newest first with date and time.
    await page.getByRole("button", { name: "All visitors" }).click();
    const drawer = page.getByRole("dialog", { name: "Recent visitors" });
    await see(drawer, /Visited/);
    await page.keyboard.press("Escape");

    // Photo review: 10 ratings with a reset, then the modal closes and the prompt disappears.
    const prompt = page.getByRole("region", { name: /Rate 10 photos/ });
    await prompt.getByRole("button", { name: "Start photo review" }).click();
    const review = page.getByRole("dialog", { name: "Photo review" });
    for (let i = 1; i <= 10; i++) {
      await see(review, `Photo ${i} of 10`);
      await review.getByRole("radio", { name: "2 stars" }).click();
      if (i === 1) {
        await review.getByRole("button", { name: "Reset" }).click();
        expect(await review.getByRole("radio", { checked: true }).count()).toBe(0);
        await screenshot(page, "home-02-photo-review");
      }
      await review.getByRole("radio", { name: `${(i % 5) + 1} star${(i % 5) + 1 === 1 ? "" : "s"}` }).click();
      await review.getByRole("button", { name: "Rate", exact: true }).click();
    }
    await review.waitFor({ state: "hidden" });
    await prompt.waitFor({ state: "detached" });
    await see(page.getByRole("status").or(page.locator(".toast")), "10 photos rated");

    // The server paid 1 M coin per photo and retired the prompt for today.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    const coinsAfter = Number(await page.getByRole("navigation", { name: "Your numbers" }).getByRole("link", { name: /M coin/ }).locator(".tile-value").innerText());
    expect(coinsAfter).toBe(coinsBefore + 10);
    expect(await page.getByRole("region", { name: /Rate 10 photos/ }).count()).toBe(0);

    // Photo cards: the comment icon opens the owner's messages with the private-reply switch; a blurred photo
    // reveals after 10 taps.
    const photos = await scrollToHomePhotos(page);
    await photos.getByRole("button", { name: /^Comments/ }).first().click();
    const comments = page.getByRole("dialog", { name: /^Comments for/ });
    await comments.getByRole("switch", { name: "Private reply" }).waitFor();
    await comments.getByRole("button", { name: "Close" }).click();
    await comments.waitFor({ state: "hidden" });
    const items = photos.locator(".masonry-item");
    const blurredIndex = await items.evaluateAll((all) => all.findIndex((item) => item.querySelector("img.blurred")));
    if (blurredIndex >= 0) {
      const item = items.nth(blurredIndex);
      for (let left = 10; left > 0; left--) await item.getByRole("button", { name: `Blurred photo: tap ${left} more times to reveal` }).click();
      // The 10th tap asks the server for the original (the page holds only the blurred rendition until then).
      await item.locator("img.blurred").waitFor({ state: "detached" });
      await item.getByRole("button", { name: /^Open photo by/ }).waitFor();
    }

    // Feedback box: blank is refused in place, a message shows the 5 s success banner.
    const feedback = page.getByRole("region", { name: "Confessional" });
    await feedback.getByRole("button", { name: "Send feedback" }).click();
    await see(feedback.getByRole("alert"), "Please write something first");
    await feedback.getByLabel("Your feedback").fill("The dashboard is lovely");
    await feedback.getByRole("button", { name: "Send feedback" }).click();
    await see(page.locator(".toast"), "your feedback was received");
    expect(await feedback.getByLabel("Your feedback").inputValue()).toBe("");

    // Roulette overlay from the query; a tap spins and shows the result.
    await gotoHydrated(page, "/smp/home?showRoulette=true");
    const roulette = page.getByRole("dialog", { name: "Training roulette" });
    await roulette.getByRole("button", { name: "Spin" }).click();
    await see(roulette, /Your training: \d+\. /);
    await screenshot(page, "home-03-roulette");
    await roulette.getByRole("button", { name: "Close" }).click();
    await roulette.waitFor({ state: "hidden" });
    expect(new URL(page.url()).searchParams.get("showRoulette")).toBeNull();

    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("looks right on a desktop screen", async () => {
    const { page, context } = await newPage(browser, { viewport: "desktop" });
    await loginThroughPage(page, DEMO.email, DEMO.password);
    await page.waitForSelector("html[data-hydrated]");
    await page.getByRole("heading", { name: "Hot profiles" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "home-04-dashboard-desktop");
    await context.close();
  });
});

describe("AI room journey", () => {
  it("lets the kycStatus 9 demo member generate an image: English only, pending, then shown", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, DEMO.email, DEMO.password);
    await page.waitForSelector("html[data-hydrated]");
    await page.getByRole("link", { name: /AI training room/ }).click();
    await page.waitForURL("**/smp/ai-room");
    await page.getByRole("heading", { name: "AI training room" }).waitFor();
    // The seeded gallery.
    await page.getByRole("img", { name: /AI image: a velvet rope coiled/ }).waitFor();

    const promptBox = page.getByLabel("Prompt (English only)");
    await promptBox.fill("縄の椅子");
    await page.getByRole("button", { name: "Create image" }).click();
    await see(page.getByRole("alert"), "English only - AI training room only support English command");

    const prompt = `a lantern over calm water ${Date.now()}`;
    await promptBox.fill(prompt);
    await page.getByRole("button", { name: "Create image" }).click();
    // Ready as soon as the member inbox says so: well before the first 30 s poll would have looked.
    const image = page.getByRole("img", { name: `AI image: ${prompt}` });
    await image.waitFor({ timeout: 20_000 });
    await page.waitForFunction((name) => {
      const img = [...document.querySelectorAll("img")].find((i) => i.alt === name);
      return Boolean(img?.complete && img.naturalWidth > 0);
    }, `AI image: ${prompt}`);
    await screenshot(page, "home-05-ai-room");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("keeps members below kycStatus 9 out of the AI room", async () => {
    const member = await apiSignUp();
    const { page, context } = await newPage(browser);
    await loginThroughPage(page, member.email, member.password);
    expect(await page.getByRole("link", { name: /AI training room/ }).count()).toBe(0);
    await gotoHydrated(page, "/smp/ai-room");
    await see(page.getByRole("alert"), "kycStatus 9 only");
    await context.close();
  });
});
