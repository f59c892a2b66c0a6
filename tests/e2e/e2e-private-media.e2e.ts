import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { apiSignUpPoster, avatarJpeg, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, previewFetch, screenshot, see } from "./support/browser";
import { apiCall, localRows } from "./support/local-api";

/**
 * Everything private is encrypted (README Decisions "Everything private is encrypted"; SECURITY.md "End-to-end
 * encrypted private messages"): two members at phone size exchange a one-to-one text, a one-to-one image, a private
 * reply in the public room and a private thread reply. Both read them decrypted; a third member sees placeholders;
 * neither D1 nor R2 (this run's local state, read byte by byte) holds any of the texts or the image's bytes.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stateDir = path.resolve(import.meta.dirname, "../..", `.wrangler/e2e-state-${process.env.E2E_PORT ?? 4317}`);
/** Every file of this run's local D1, R2 and Durable Object state. */
/** SQLite's -shm and -wal files come and go while the server runs, so a file listed may be gone a moment later. */
const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";
function stateFiles(dir = stateDir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    try {
      return statSync(full).isDirectory() ? stateFiles(full) : [full];
    } catch (error) {
      if (gone(error)) return [];
      throw error;
    }
  });
}
function readIfPresent(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    if (gone(error)) return Buffer.alloc(0);
    throw error;
  }
}
/** The decrypted image shown (a blob URL, decoded); with `bytes`, what the blob holds. */
const decodedImage = (list: Locator, bytes = false) =>
  list.locator("img.chat-image").evaluate(async (img, bytes) => {
    const image = img as HTMLImageElement;
    if (!image.src.startsWith("blob:") || !image.complete || image.naturalWidth === 0) return null;
    return bytes ? Array.from(new Uint8Array(await (await fetch(image.src)).arrayBuffer())) : [];
  }, bytes);

describe("everything private is encrypted", () => {
  it("one-to-one text and image, a private reply and a private thread reply: readable to both, placeholders to a third, nothing at rest", async () => {
    const [a, b, c] = [await apiSignUpPoster(), await apiSignUpPoster(), await apiSignUpPoster()];
    // Followed members' messages arrive directly and their images unblurred (no request tray in the way).
    for (const [x, y] of [[a, b], [b, a]] as const) expect((await apiCall(x, "POST", `/core/follows/${y.memberNo}`)).body.returnCode).toBe("000000");
    // B's page reads the decrypted blob's bytes back, which the page CSP (connect-src) rightly refuses to scripts.
    const [pa, pb, pc] = [await newPage(browser), await newPage(browser, { bypassCSP: true }), await newPage(browser)];
    await loginThroughPage(pa.page, a.email, a.password);
    await loginThroughPage(pb.page, b.email, b.password);
    await loginThroughPage(pc.page, c.email, c.password);
    const room = `/smp/chatroom/${a.memberNo}/${b.memberNo}`;
    await gotoHydrated(pb.page, room);
    await gotoHydrated(pa.page, room);
    for (const m of [a, b]) await expect.poll(async () => (await apiCall(m, "GET", "/sns/e2e-devices")).body.info.length, { timeout: 20_000 }).toBe(1);
    await gotoHydrated(pa.page, room);
    await pa.page.locator(".e2e-safety").waitFor();
    const stamp = Date.now().toString(36);
    const secrets = { dm: `dm text ${stamp} under the bridge`, reply: `public-room private ${stamp} safeword`, thread: `thread private ${stamp} collar` };
    const aList = pa.page.getByRole("list", { name: "Messages" });
    const bList = pb.page.getByRole("list", { name: "Messages" });

    // 1. One-to-one text.
    const box = pa.page.getByLabel("Message", { exact: true });
    await box.fill(secrets.dm);
    await box.press("Enter");
    await see(aList, secrets.dm);
    await see(bList, secrets.dm, 15_000);

    // 2. One-to-one image: re-drawn, encrypted and uploaded as opaque bytes; both decrypt it from a blob URL.
    const original = Buffer.from(avatarJpeg(33, 160));
    await pa.page.locator(".chat-send input[type=file]").setInputFiles({ name: `private-holiday-${stamp}.jpg`, mimeType: "image/jpeg", buffer: original });
    await expect.poll(() => decodedImage(aList).catch(() => null), { timeout: 20_000 }).not.toBeNull();
    await expect.poll(() => decodedImage(bList, true).catch(() => null), { timeout: 20_000 }).not.toBeNull();
    const shown = Buffer.from((await decodedImage(bList, true))!);
    expect([...shown.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    await screenshot(pb.page, "e2e-media-01-dm-image-phone");
    const imageRow = localRows(`select payload from chat_messages where member_id = '${a.memberId}' and payload like '%"media"%'`);
    expect(imageRow).toHaveLength(1);
    const media = JSON.parse(String(imageRow[0]!.payload)).media as string;
    expect(media).toMatch(new RegExp(`^/private-media/SMP/${a.memberNo}/e2e/[A-Za-z0-9]{24}\\.bin$`));
    // Through the worker: the members get ciphertext (never an image), everyone else 404.
    const stored = Buffer.from(await (await previewFetch(`${baseUrl()}${media}`, { headers: b.headers })).arrayBuffer());
    expect(stored.length).toBeGreaterThan(16);
    // JPEG headers are alike across files: the compressed picture data near the end is what identifies an image.
    const tail = (bytes: Buffer) => bytes.subarray(bytes.length - 80, bytes.length - 16);
    expect(stored.includes(tail(shown))).toBe(false);
    expect(stored.includes(tail(original))).toBe(false);
    expect([...stored.subarray(0, 3)]).not.toEqual([0xff, 0xd8, 0xff]);
    for (const headers of [c.headers, {}]) expect((await previewFetch(`${baseUrl()}${media}`, { headers })).status).toBe(404);

    // 3. A public note by A, then B's private reply to A in the public room.
    const note = `a public note ${stamp}`;
    await gotoHydrated(pa.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const publicBox = pa.page.getByLabel("Message", { exact: true });
    await publicBox.fill(note);
    await publicBox.press("Enter");
    await see(pa.page.getByRole("list", { name: "Messages" }), note, 15_000);
    await expect.poll(() => localRows(`select count(*) as n from chat_messages where member_id = '${a.memberId}' and is_private = 0`)[0]?.n, { timeout: 15_000 }).toBe(1);
    await gotoHydrated(pb.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const noteItem = pb.page.getByRole("list", { name: "Messages" }).locator("li", { hasText: note });
    await see(noteItem, note, 15_000);
    await screenshot(pb.page, "e2e-media-02a-public-note-phone");
    await noteItem.getByRole("button", { name: /^Send a private message to/ }).click();
    await pb.page.getByRole("switch", { name: "Private message" }).click();
    const replyBox = pb.page.getByLabel("Message", { exact: true });
    await replyBox.fill(secrets.reply);
    await replyBox.press("Enter");
    await see(pb.page.getByRole("list", { name: "Messages" }), secrets.reply, 15_000);
    await gotoHydrated(pa.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await see(pa.page.getByRole("list", { name: "Messages" }), secrets.reply, 15_000);
    await screenshot(pa.page, "e2e-media-02-private-reply-phone");

    // 4. B's private thread reply under A's note; A reads it on the notes page.
    await pb.page.getByRole("switch", { name: "Private message" }).click();
    await pb.page.getByRole("list", { name: "Messages" }).locator("li", { hasText: note }).getByRole("link", { name: /repl/ }).click();
    await pb.page.waitForURL(/\/smp\/notes\/\d+/);
    await pb.page.waitForSelector("html[data-hydrated]");
    const notePath = new URL(pb.page.url()).pathname;
    await pb.page.getByRole("switch", { name: "Private reply" }).click();
    await pb.page.getByLabel("Your reply").fill(secrets.thread);
    await pb.page.getByRole("button", { name: "Reply", exact: true }).click();
    await see(pb.page.getByRole("list", { name: "Replies" }), secrets.thread, 15_000);
    await gotoHydrated(pa.page, notePath);
    await see(pa.page.getByRole("list", { name: "Replies" }), secrets.thread, 15_000);
    await screenshot(pa.page, "e2e-media-03-thread-reply-phone");

    // A third member: placeholders only, in the room and under the note.
    await gotoHydrated(pc.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const cList = pc.page.getByRole("list", { name: "Messages" });
    await see(cList, note);
    await see(cList, "private message");
    await gotoHydrated(pc.page, notePath);
    await see(pc.page.getByRole("list", { name: "Replies" }), "private message");
    await screenshot(pc.page, "e2e-media-04-third-member-phone");
    for (const text of Object.values(secrets)) expect(await pc.page.content()).not.toContain(text);

    // At rest: the rows hold envelopes; no file of the local D1/R2/Durable Object state holds a text or the image.
    const rows = localRows(
      `select message, payload from chat_messages where member_id in ('${a.memberId}', '${b.memberId}') and is_private = 1
       union all select message, payload from chat_threads where member_id = '${b.memberId}'`,
    );
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.message).toBe("");
      expect(JSON.parse(String(row.payload)).type).toBe("encrypted");
    }
    const needles = [...Object.values(secrets).map((s) => Buffer.from(s)), Buffer.from(`private-holiday-${stamp}`), tail(shown), tail(original)];
    const files = stateFiles();
    expect(files.some((f) => f.endsWith(".sqlite"))).toBe(true);
    for (const file of files) {
      const bytes = readIfPresent(file);
      for (const needle of needles) expect(bytes.includes(needle), `${path.relative(stateDir, file)} holds a plaintext`).toBe(false);
    }

    for (const p of [pa, pb, pc]) {
      expect(await p.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
      expect(p.consoleErrors).toEqual([]);
      await p.context.close();
    }
  });
});
