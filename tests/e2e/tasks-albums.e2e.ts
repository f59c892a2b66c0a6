import { PhotonImage } from "@cf-wasm/photon/node";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const W = 120, H = 90;
function sourcePixels() {
  const pixels = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) pixels.set([60 + x, 50 + y * 2, 200 - x, 255], (y * W + x) * 4);
  return pixels;
}
function png(pixels: Uint8Array) {
  const image = new PhotonImage(pixels, W, H);
  const bytes = image.get_bytes();
  image.free();
  return Buffer.from(bytes);
}

/** Mean absolute channel difference between what a canvas shows and the original picture. */
async function canvasDistance(page: Page, original: Uint8Array) {
  const shown = await page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>("canvas[data-unscrambled='true']")!;
    return Array.from(canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data);
  });
  expect(shown.length).toBe(original.length);
  let sum = 0;
  for (let i = 0; i < original.length; i++) sum += Math.abs(shown[i]! - original[i]!);
  return sum / original.length;
}

describe("tasks journey", () => {
  it("A creates a task, B takes it up and submits, A confirms", async () => {
    const a = await apiSignUp();
    const b = await apiSignUp();
    const pageA = await newPage(browser);
    const pageB = await newPage(browser, { viewport: "desktop" });
    const subject = `Tea ceremony ${Date.now().toString(36)}`;
    const description = "Prepare tea with full attention: warm the pot, measure, wait and serve. Describe every step and how slowing down felt.";

    await loginThroughPage(pageA.page, a.email, a.password);
    await gotoHydrated(pageA.page, "/smp/task/0");
    await pageA.page.getByRole("button", { name: "Create task" }).click();
    const dialog = pageA.page.getByRole("dialog");
    await dialog.getByLabel("Subject").fill(subject);
    await dialog.getByLabel("Description").fill(description);
    await dialog.getByRole("button", { name: "Create" }).click();
    await see(pageA.page.getByRole("status"), `Task “${subject}” created`);
    await see(pageA.page.getByRole("listitem"), subject);
    await screenshot(pageA.page, "tasks-01-created");

    await loginThroughPage(pageB.page, b.email, b.password);
    await gotoHydrated(pageB.page, "/smp/task/0");
    await pageB.page.getByRole("button", { name: `Take up “${subject}”` }).click();
    const takeUp = pageB.page.getByRole("dialog");
    await see(takeUp, /unlocks once you take up/);
    expect(await takeUp.textContent()).not.toContain("how slowing down felt");
    await takeUp.getByRole("button", { name: "Take up this task" }).click();
    await see(takeUp, "how slowing down felt");
    await screenshot(pageB.page, "tasks-02-taken-up");
    await takeUp.getByRole("link", { name: "Go to mission" }).click();
    await pageB.page.waitForURL("**/smp/mission/*");
    await pageB.page.waitForSelector("html[data-hydrated]");
    await pageB.page.getByLabel("Feedback").fill("Warmed the pot and waited. I noticed how impatient I usually am.");
    await pageB.page.getByLabel("Remark").fill("Photo attached");
    await pageB.page.getByLabel("Cover image").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png(sourcePixels()) });
    await see(pageB.page.locator(".toast"), "Cover image uploaded");
    await pageB.page.getByRole("img", { name: `Cover image of “${subject}”` }).waitFor();
    await pageB.page.getByRole("button", { name: "Save" }).click();
    await see(pageB.page.locator(".toast"), "Mission saved");
    await pageB.page.getByRole("button", { name: "Submit for review" }).click();
    await see(pageB.page.locator(".status-chip"), "In review");
    await expect(pageB.page.getByLabel("Feedback").count()).resolves.toBe(0);
    await screenshot(pageB.page, "tasks-03-submitted");

    await gotoHydrated(pageA.page, "/smp/task/2");
    await pageA.page.getByRole("link", { name: `Review “${subject}”` }).click();
    await pageA.page.waitForURL("**/smp/review/*");
    await pageA.page.waitForSelector("html[data-hydrated]");
    await see(pageA.page.locator("main"), "I noticed how impatient I usually am.");
    await pageA.page.getByLabel("Your remark").fill("Beautifully done.");
    await pageA.page.getByRole("button", { name: "Confirm mission" }).click();
    await see(pageA.page.locator(".status-chip"), "Confirmed");
    await screenshot(pageA.page, "tasks-04-confirmed");

    await pageB.page.reload();
    await pageB.page.waitForSelector("html[data-hydrated]");
    await see(pageB.page.locator(".status-chip"), "Confirmed");
    await see(pageB.page.locator("main"), "Beautifully done.");
    await gotoHydrated(pageB.page, "/smp/task/1");
    await see(pageB.page.getByRole("listitem"), "Confirmed");

    expect(pageA.consoleErrors).toEqual([]);
    expect(pageB.consoleErrors).toEqual([]);
    await pageA.context.close();
    await pageB.context.close();
  });
});

describe("albums journey", () => {
  it("creates a keyed album, uploads, shares, and a visitor unlocks it with the key to see the unscrambled photo", async () => {
    const a = await apiSignUp();
    const owner = await newPage(browser);
    await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    const original = sourcePixels();

    await loginThroughPage(owner.page, a.email, a.password);
    await gotoHydrated(owner.page, "/smp/albums");
    await owner.page.getByRole("button", { name: "Create album" }).click();
    const create = owner.page.getByRole("dialog");
    await create.getByLabel("Title").fill("After dark");
    await create.getByLabel("Secret key").fill("velvet rope");
    await create.getByRole("button", { name: "Create" }).click();
    // The owner is not asked for their own key; it never goes into the address (history, logs): the owner's seed
    // comes from the server.
    await owner.page.getByRole("button", { name: "Open “After dark”" }).click();
    await owner.page.waitForURL(/\/smp\/albums\/\d+\/edit$/);
    await owner.page.waitForSelector("html[data-hydrated]");
    const idAlbum = Number(new URL(owner.page.url()).pathname.split("/")[3]);

    await owner.page.getByLabel("Choose png or jpg images").setInputFiles({ name: "night.png", mimeType: "image/png", buffer: png(original) });
    await see(owner.page.locator(".toast"), "Uploaded successfully");
    await owner.page.locator("canvas[data-unscrambled='true']").waitFor();
    expect(await canvasDistance(owner.page, original)).toBeLessThan(1);

    await owner.page.getByRole("button", { name: "Copy link" }).click();
    await see(owner.page.locator(".toast"), "Copied");
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseUrl()}/smp/albums/${idAlbum}`);
    await screenshot(owner.page, "albums-01-edit");

    // The stored file is the scrambled one: far from the original. It is served only through /private-media, to the
    // owner's session (the page's cookie), never to a bare request and never at /media.
    const { filePath, bytes } = await owner.page.evaluate(async (id) => {
      const headers = { "X-Access-Token": localStorage.getItem("token")!, "X-Member-ID": localStorage.getItem("memberId")! };
      const r = await fetch(`/api/v7/private/sns/albums/${id}`, { headers });
      const path = ((await r.json()) as { info: { photos: { filePath: string }[] } }).info.photos[0]!.filePath;
      return { filePath: path, bytes: [...new Uint8Array(await (await fetch(path)).arrayBuffer())] };
    }, idAlbum);
    expect(filePath).toMatch(/^\/private-media\/SMP\/\d+\/keyed\/[A-Za-z0-9]{24}\.png$/);
    const bare = await fetch(`${baseUrl()}${filePath}`);
    expect([bare.status, bare.headers.get("cache-control")]).toEqual([404, "private, no-store"]);
    expect((await fetch(`${baseUrl()}${filePath.replace("/private-media/", "/media/")}`)).status).toBe(404);
    const stored = PhotonImage.new_from_byteslice(new Uint8Array(bytes));
    const raw = stored.get_raw_pixels();
    stored.free();
    let rawDistance = 0;
    for (let i = 0; i < original.length; i++) rawDistance += Math.abs(raw[i]! - original[i]!);
    expect(rawDistance / original.length).toBeGreaterThan(10);

    // A visitor opens the shared link: nothing without the key, a wrong key is refused, the right one unscrambles.
    const visitor = await newPage(browser, { viewport: "desktop" });
    await gotoHydrated(visitor.page, `/smp/albums/${idAlbum}`);
    await see(visitor.page.getByRole("heading", { level: 1 }), "After dark");
    expect(await visitor.page.locator(".album-photo").count()).toBe(0);
    await visitor.page.getByLabel("Secret key").fill("wrong key");
    await visitor.page.getByRole("button", { name: "Unlock" }).click();
    await see(visitor.page.getByRole("alert"), "Wrong secret key");
    expect(await visitor.page.locator(".album-photo").count()).toBe(0);
    await visitor.page.getByLabel("Secret key").fill("velvet rope");
    await visitor.page.getByRole("button", { name: "Unlock" }).click();
    await visitor.page.locator("canvas[data-unscrambled='true']").waitFor();
    await visitor.page.getByRole("img", { name: "Photo 1 of “After dark”" }).waitFor();
    expect(await canvasDistance(visitor.page, original)).toBeLessThan(1);
    expect(visitor.page.url()).toBe(`${baseUrl()}/smp/albums/${idAlbum}`);
    await screenshot(visitor.page, "albums-02-unlocked");
    // The unlock is remembered (HttpOnly cookie) for a reload.
    await gotoHydrated(visitor.page, `/smp/albums/${idAlbum}`);
    await visitor.page.locator("canvas[data-unscrambled='true']").waitFor();

    // §2 albums/{id}/edit?secretKey=… still works for old links, but the key leaves the address at once: the owner
    // lands on the edit page without it; another member lands on the album, unlocked.
    await gotoHydrated(owner.page, `/smp/albums/${idAlbum}/edit?secretKey=velvet%20rope`);
    expect(owner.page.url()).toBe(`${baseUrl()}/smp/albums/${idAlbum}/edit`);
    const b = await apiSignUp();
    const member = await newPage(browser);
    await loginThroughPage(member.page, b.email, b.password);
    await gotoHydrated(member.page, `/smp/albums/${idAlbum}/edit?secretKey=velvet%20rope`);
    expect(member.page.url()).toBe(`${baseUrl()}/smp/albums/${idAlbum}`);
    await member.page.locator("canvas[data-unscrambled='true']").waitFor();
    expect(await canvasDistance(member.page, original)).toBeLessThan(1);
    // Nowhere in the history either: going back leaves the album for the page before the link.
    await member.page.goBack();
    expect(member.page.url()).not.toContain("secretKey");
    expect(member.consoleErrors).toEqual([]);
    await member.context.close();

    // Delete the photo and the album from the owner's pages.
    await owner.page.getByRole("button", { name: "Delete photo 1" }).click();
    await owner.page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await see(owner.page.locator(".toast"), "Photo deleted");
    await see(owner.page.locator("main"), "No photos yet.");
    await gotoHydrated(owner.page, "/smp/albums");
    await owner.page.getByRole("button", { name: "Delete album “After dark”" }).click();
    await owner.page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await see(owner.page.locator(".toast"), "Album “After dark” deleted");
    await see(owner.page.locator("main"), "No albums yet.");

    expect(owner.consoleErrors).toEqual([]);
    expect(visitor.consoleErrors.filter((e) => !/403|Forbidden/.test(e))).toEqual([]);
    await owner.context.close();
    await visitor.context.close();
  });
});
