import { PhotonImage } from "@cf-wasm/photon/node";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { apiSignUp, avatarJpeg, baseUrl, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localSql, type Account } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A member with a profile and a qualified avatar (tests make their own data through the API). */
async function memberWith(profile: { nickname: string; introduction: string; multiGender: number }, hue: number) {
  const m = await apiSignUp();
  expect((await apiCall(m, "PATCH", `/core/profiles/${m.memberId}`, profile)).body.returnCode).toBe("000000");
  const form = new FormData();
  form.set("type", "avatar");
  form.set("file", new Blob([new Uint8Array(avatarJpeg(hue))], { type: "image/jpeg" }), "avatar.jpg");
  const upload = await fetch(`${baseUrl()}/api/v7/private/core/files/SMP/${m.memberId}`, { method: "POST", headers: m.headers, body: form });
  expect(((await upload.json()) as { returnCode: string }).returnCode).toBe("000000");
  return { ...m, nickname: profile.nickname };
}

const post = async (m: Account, message: string) =>
  (await apiCall(m, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { message, requestId: `rules-${Date.now()}-${Math.random().toString(36).slice(2)}` })).body.info as { idChatroomMessage: number };

/** A 24x24 picture whose pixels the test knows, for the encoded-image round trip. */
const SIDE = 24;
function knownPixels() {
  const pixels = new Uint8Array(SIDE * SIDE * 4);
  for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) pixels.set([40 + x * 8, 60 + y * 7, 120 + ((x + y) % 50), 255], (y * SIDE + x) * 4);
  return pixels;
}
function knownPng() {
  const image = new PhotonImage(knownPixels(), SIDE, SIDE);
  const bytes = image.get_bytes();
  image.free();
  return Buffer.from(bytes);
}

describe("page rules journey (phone)", () => {
  it("a new member is greeted without their member number, with a generated avatar", async () => {
    const rookie = (await apiSignUp()) as Account & { memberNo: string };
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, rookie.email, rookie.password);
    await page.waitForSelector("html[data-hydrated]");
    await see(page.getByRole("heading", { level: 1 }), "Welcome to Velvet");
    expect(await page.getByRole("heading", { level: 1 }).first().innerText()).not.toContain(rookie.memberNo);
    await page.getByRole("link", { name: "Choose a nickname so members know you" }).waitFor();
    // §7 gravatar-style fallback: an identicon drawn in the page, no third-party request.
    await page.locator(".home-header svg[data-identicon] rect").first().waitFor();
    await screenshot(page, "page-rules-01-greeting-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("chat: preview, encoded image, reactions, private switch per visit, notes edit/delete/back, tasks, albums, bid, coins", async () => {
    const stamp = Date.now().toString(36);
    const poster = await memberWith({ nickname: `Poster ${stamp}`, introduction: "Here to talk about rope, tea and patience.", multiGender: 1 }, 20);
    const me = await memberWith({ nickname: `Reader ${stamp}`, introduction: "Curious reader of the public chat, polite.", multiGender: 4 }, 70);
    localSql(`update profiles set kyc_status = 1 where member_id = '${me.memberId}'`);

    // Data: two messages by the poster (only the newer belongs in the preview), a photo to rate, a task, a keyed album.
    await post(poster, `older line ${stamp}`);
    const newer = await post(poster, `newer line ${stamp}`);
    const photoForm = new FormData();
    photoForm.set("type", "photo");
    photoForm.set("file", new Blob([new Uint8Array(avatarJpeg(140, 200))], { type: "image/jpeg" }), "photo.jpg");
    const photo = (await (await fetch(`${baseUrl()}/api/v7/private/core/files/SMP/${poster.memberId}`, { method: "POST", headers: poster.headers, body: photoForm })).json()) as { info: { url: string } };
    expect((await apiCall(poster, "POST", `/core/banners/${poster.memberId}`, { image: photo.info.url, pickable: true, width: 200, height: 200 })).body.returnCode).toBe("000000");
    const subject = `Tea ceremony ${stamp}`;
    expect((await apiCall(poster, "POST", "/sns/tasks", { subject, description: "Prepare and serve tea with full attention." })).body.returnCode).toBe("000000");
    const album = (await apiCall(me, "POST", "/sns/albums", { title: `Keyed ${stamp}`, secretKey: "velvet rope 42" })).body.info as { idAlbum: number };

    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, me.email, me.password);
    await page.waitForSelector("html[data-hydrated]");

    // §9 home chat preview: one line per member, their latest message.
    const preview = page.getByRole("region", { name: /Who is talking/ });
    await see(preview, `newer line ${stamp}`);
    expect(await preview.getByText(`older line ${stamp}`).count()).toBe(0);
    expect(await preview.getByText(`Poster ${stamp}`).count()).toBe(1);

    // M coin tile follows a rating without a reload.
    // By CSS, not role: the review dialog stays open while other photos wait, hiding the page from the accessibility tree.
    const tile = page.locator(`.tiles a[href="/smp/market"] .tile-value`);
    const before = Number((await tile.innerText()).replace(/\D+/g, ""));
    await page.getByRole("button", { name: "Start photo review" }).click();
    await page.getByRole("radio", { name: "5 stars" }).click();
    await page.getByRole("button", { name: "Rate", exact: true }).click();
    await expect.poll(async () => Number((await tile.innerText()).replace(/\D+/g, "")), { timeout: 10_000 }).toBe(before + 1);
    await page.keyboard.press("Escape");
    await screenshot(page, "page-rules-02-home-preview-coins-phone");

    // Public chat: the private switch starts off on every visit.
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const privateSwitch = page.getByRole("switch", { name: "Private message" });
    await privateSwitch.click();
    await expect.poll(() => privateSwitch.getAttribute("aria-checked")).toBe("true");
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await expect.poll(() => page.getByRole("switch", { name: "Private message" }).getAttribute("aria-checked")).toBe("false");
    expect(await page.evaluate(() => localStorage.getItem("setIsPrivate"))).toBe("false");

    // Reactions: the picker closes after a choice; the chip takes the member's own reaction back.
    const messages = page.getByRole("list", { name: "Messages" });
    const item = messages.locator(`li[data-message-id="${newer.idChatroomMessage}"]`);
    await item.waitFor();
    const menu = item.locator("details.chat-react-menu");
    await menu.locator("summary").click();
    await item.getByRole("button", { name: "React with 🔥" }).click();
    const chip = item.getByRole("button", { name: /^🔥 \d+: take yours back$/ });
    await chip.waitFor();
    expect(await menu.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await chip.getAttribute("aria-pressed")).toBe("true");
    await screenshot(page, "page-rules-03-reaction-chip-phone");
    await chip.click();
    await expect.poll(() => item.locator(".chat-reaction").count()).toBe(0);

    // §4 encoded image: sent scrambled, shown unscrambled (pixel for pixel) on a canvas.
    await page.locator(".chat-send input[type=file]").setInputFiles({ name: "known.png", mimeType: "image/png", buffer: knownPng() });
    const canvas = messages.locator('canvas[data-unscrambled="true"]').last();
    await canvas.waitFor({ timeout: 15_000 });
    const shown = await canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      return { w: c.width, h: c.height, data: Array.from(c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data) };
    });
    expect([shown.w, shown.h]).toEqual([SIDE, SIDE]);
    expect(shown.data).toEqual(Array.from(knownPixels()));
    const stored = await apiCall(me, "GET", `/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=5`);
    const encoded = (stored.body.info as { payload: { type: string; src: string } | null }[]).filter((m) => m.payload?.type === "encodedImage").pop()!;
    const raw = new Uint8Array(await (await fetch(`${baseUrl()}${encoded.payload!.src}`)).arrayBuffer());
    const rawImage = PhotonImage.new_from_byteslice(raw);
    const rawPixels = Array.from(rawImage.get_raw_pixels());
    rawImage.free();
    expect(rawPixels).not.toEqual(Array.from(knownPixels()));
    await screenshot(page, "page-rules-04-encoded-image-phone");

    // Notes: back, edit and delete for the author only; the English delete-failure toast is a sentence.
    const note = await post(me, `my note ${stamp}`);
    const other = await newPage(browser);
    await loginThroughPage(other.page, poster.email, poster.password);
    await gotoHydrated(other.page, `/smp/notes/${note.idChatroomMessage}`);
    await see(other.page.locator(".note-body"), `my note ${stamp}`);
    expect(await other.page.getByRole("button", { name: "Edit", exact: true }).count()).toBe(0);
    expect(await other.page.getByRole("button", { name: "Delete", exact: true }).count()).toBe(0);
    await other.context.close();

    await gotoHydrated(page, `/smp/notes/${note.idChatroomMessage}`);
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await page.getByLabel("Edit message").fill(`my edited note ${stamp}`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await see(page.locator(".note-body"), `my edited note ${stamp}`);
    await screenshot(page, "page-rules-05-note-author-phone");
    await page.route("**/sns/chatroom/messages/**", (route) =>
      route.request().method() === "DELETE" ? route.fulfill({ status: 500, contentType: "application/json", body: '{"returnCode":"500000","returnMessage":"x"}' }) : route.fallback(),
    );
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await see(page.locator("body"), "Could not delete the message");
    expect(await page.getByText("deleteMessage", { exact: true }).count()).toBe(0);
    await page.unroute("**/sns/chatroom/messages/**");
    await page.getByRole("button", { name: "Back" }).click();
    await page.waitForURL(`**/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await gotoHydrated(page, `/smp/notes/${note.idChatroomMessage}`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(`**/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    expect((await apiCall(me, "GET", `/sns/chatroom/messages/${note.idChatroomMessage}`)).status).toBe(404);

    // Tasks: once taken up, the card offers the mission, not "Take up".
    await gotoHydrated(page, "/smp/task/0");
    await page.getByRole("button", { name: `Take up “${subject}”` }).click();
    await page.getByRole("button", { name: "Take up this task" }).click();
    await page.getByRole("dialog").getByRole("link", { name: "Go to mission" }).or(page.getByRole("dialog").getByRole("status")).first().waitFor();
    await page.keyboard.press("Escape");
    const card = page.locator(".task-card", { hasText: subject });
    await card.getByRole("link", { name: "Open mission" }).waitFor();
    expect(await card.getByRole("button", { name: /Take up/ }).count()).toBe(0);
    await screenshot(page, "page-rules-06-task-taken-phone");

    // Albums: the owner opens their keyed album without being asked for its key.
    await gotoHydrated(page, "/smp/albums");
    await page.getByRole("button", { name: `Open “Keyed ${stamp}”` }).click();
    await page.waitForURL(`**/smp/albums/${album.idAlbum}/edit`);
    expect(await page.getByRole("dialog").count()).toBe(0);

    // Market: a member who cannot bid sees no Bid button; a master does.
    const sub = await memberWith({ nickname: `Sub ${stamp}`, introduction: "Obedient, curious and looking for a patient owner.", multiGender: 3 }, 110);
    expect((await apiCall(sub, "POST", "/sns/sub-members/SMP/join", { masterMemberNo: (poster as unknown as { memberNo: string }).memberNo })).body.returnCode).toBe("000000");
    expect((await apiCall(poster, "POST", "/sns/game/market/slave", { simpleCode: (sub as unknown as { memberNo: string }).memberNo })).body.returnCode).toBe("000000");
    await gotoHydrated(page, "/smp/market");
    await see(page.locator(".bidding-card"), `Sub ${stamp}`);
    expect(await page.getByRole("button", { name: `Bid for Sub ${stamp}` }).count()).toBe(0);
    await screenshot(page, "page-rules-07-market-no-bid-phone");
    const bidder = await memberWith({ nickname: `Master ${stamp}`, introduction: "Calm, firm and kind. Looking for a devoted sub.", multiGender: 1 }, 160);
    const m = await newPage(browser);
    await loginThroughPage(m.page, bidder.email, bidder.password);
    await gotoHydrated(m.page, "/smp/market");
    await m.page.getByRole("button", { name: `Bid for Sub ${stamp}` }).waitFor();
    await m.context.close();

    expect(await hasHorizontalOverflow(page)).toBe(false);
    expect(consoleErrors).toEqual([]);
    await context.close();
    // One journey through many pages on a shared 2-core machine: more than the default 90 s.
  }, 240_000);
});
