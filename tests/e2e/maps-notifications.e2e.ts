import { PhotonImage } from "@cf-wasm/photon/node";
import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { apiSignUp, avatarJpeg, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localSql, type Account } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** One 256 px tile, served for every tile request: the machine has no network, and the tile server is not ours. */
function tilePng() {
  const size = 256;
  const pixels = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) pixels.set([200, 220 - ((i % size) >> 3), 200, 255], i * 4);
  const image = new PhotonImage(pixels, size, size);
  const bytes = image.get_bytes();
  image.free();
  return Buffer.from(bytes);
}

/** A member with a nickname, introduction, role and qualified avatar, made through the API. */
async function memberWith(nickname: string, multiGender: number, hue: number) {
  const m = await apiSignUp();
  expect((await apiCall(m, "PATCH", `/core/profiles/${m.memberId}`, { nickname, introduction: "Here for the journey, kind and curious.", multiGender })).body.returnCode).toBe("000000");
  const form = new FormData();
  form.set("type", "avatar");
  form.set("file", new Blob([new Uint8Array(avatarJpeg(hue))], { type: "image/jpeg" }), "avatar.jpg");
  const upload = await fetch(`${baseUrl()}/api/v7/private/core/files/SMP/${m.memberId}`, { method: "POST", headers: m.headers, body: form });
  expect(((await upload.json()) as { returnCode: string }).returnCode).toBe("000000");
  return { ...m, nickname, memberNo: m.memberNo! };
}

let seq = 0;
const requestId = () => `e2e-mn-${Date.now().toString(36)}-${++seq}`;
async function privateMessage(from: Account, to: { memberNo?: string }, message: string, room = directChatroomId(from.memberNo!, to.memberNo!)) {
  const reply = await apiCall(from, "POST", `/sns/chatrooms/${room}/messages/${from.memberId}`, { requestId: requestId(), message, isPrivate: true, toMemberNo: to.memberNo });
  expect(reply.body.returnCode).toBe("000000");
  return reply.body.info as { idChatroomMessage: number };
}
const ok = async (reply: Promise<{ body: { returnCode: string; info: any } }>) => {
  const { body } = await reply;
  expect(body.returnCode).toBe("000000");
  return body.info;
};
const zoomOf = (map: Locator) => map.getAttribute("data-zoom");

describe("maps and notifications journey", () => {
  it("draws the map from the tile host the CSP allows and zooms per §9, at phone size", async () => {
    const stamp = Date.now().toString(36);
    const me = await memberWith(`Ash ${stamp}`, 1, 30);
    const near = await memberWith(`Fern ${stamp}`, 4, 150);
    await ok(apiCall(me, "PUT", `/core/geolocation/${me.memberId}`, { latitude: 35.6581234, longitude: 139.7016789 }));
    // ~25 km south-west: the market journey's member is drawn at this member's own cell (Shibuya), and at zoom 8 a
    // circle there would lie over one a few kilometres away and take its taps.
    await ok(apiCall(near, "PUT", `/core/geolocation/${near.memberId}`, { latitude: 35.55, longitude: 139.45 }));
    await ok(apiCall(near, "PATCH", `/core/profiles/${near.memberId}`, { showPosition: true }));

    const s = await newPage(browser);
    const png = tilePng();
    const tiles: string[] = [];
    // Only tile.openstreetmap.org is intercepted: a tile asked of any other host would not load (and CSP would block it).
    await s.context.route(/^https:\/\/tile\.openstreetmap\.org\//, (route) => {
      tiles.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "image/png", body: png });
    });
    await loginThroughPage(s.page, me.email, me.password);
    const response = await s.page.goto("/smp/market");
    await s.page.waitForSelector("html[data-hydrated]");
    const imgSrc = (response?.headers()["content-security-policy"] ?? "").split(";").map((d) => d.trim()).find((d) => d.startsWith("img-src "));
    expect(imgSrc).toBe("img-src 'self' data: blob: https://tile.openstreetmap.org");

    const nearby = s.page.locator('section[aria-labelledby="market-nearby"]');
    await nearby.getByRole("button", { name: "Who is nearby?" }).click();
    const map = nearby.locator(".leaflet-container");
    await map.waitFor();
    // §9: zoom 8 at first, around the member.
    await expect.poll(() => zoomOf(map)).toBe("8");
    await expect.poll(() => nearby.locator("img.leaflet-tile-loaded").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(tiles.length).toBeGreaterThan(0);
    for (const url of tiles) expect(url).toMatch(/^https:\/\/tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/);
    expect(tiles.some((url) => url.includes("/8/"))).toBe(true);
    await screenshot(s.page, "maps-01-nearby-zoom8-phone");

    // §9: 12 on a selected member (drawn at their cell), sized 30 + rank/10 px as a qualified avatar.
    // Other journeys' members may be nearby too: this one is named by its member number.
    const marker = nearby.locator(`path.map-member-${near.memberNo}`);
    await expect.poll(() => marker.count()).toBe(1);
    await marker.click();
    await expect.poll(() => zoomOf(map)).toBe("12");
    expect(await map.getAttribute("data-view")).toBe("selection");
    const box = (await marker.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(28);
    expect(box.width).toBeLessThanOrEqual(36);
    await see(nearby.getByRole("link", { name: `Open Fern ${stamp}'s profile` }), `Fern ${stamp}`);
    // §9: one level more every 10 avatar taps.
    for (let tap = 2; tap <= 9; tap++) await marker.click();
    expect(await zoomOf(map)).toBe("12");
    await marker.click();
    await expect.poll(() => zoomOf(map)).toBe("13");
    await screenshot(s.page, "maps-02-nearby-selected-phone");
    // §9: 14 on the member's own position.
    await nearby.getByRole("button", { name: "My position" }).click();
    await expect.poll(() => zoomOf(map)).toBe("14");
    expect(await map.getAttribute("data-view")).toBe("own");
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);

    // The public profile's map shows the member's cell as the selection (zoom 12), tiles from the same host.
    const before = tiles.length;
    await gotoHydrated(s.page, `/smp/share/${near.memberNo}`);
    const profileMap = s.page.locator(".profile-map");
    await profileMap.scrollIntoViewIfNeeded();
    const leaflet = profileMap.locator(".leaflet-container");
    await leaflet.waitFor();
    await expect.poll(() => zoomOf(leaflet)).toBe("12");
    await expect.poll(() => profileMap.locator("img.leaflet-tile-loaded").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(tiles.slice(before).some((url) => url.includes("/12/"))).toBe(true);
    await screenshot(s.page, "maps-03-profile-map-phone");
    expect(s.consoleErrors).toEqual([]);
    await s.context.close();
  });

  it("each notification opens what it is about, with short ages; the New marker follows unread messages", async () => {
    const stamp = Date.now().toString(36);
    const me = await memberWith(`Rowan ${stamp}`, 2, 60);
    const a = await memberWith(`Sage ${stamp}`, 3, 200);
    localSql(`update profiles set kyc_status = 1 where member_id = '${a.memberId}'`);
    const dm = directChatroomId(me.memberNo, a.memberNo);

    await ok(apiCall(a, "POST", `/core/follows/${me.memberNo}`));
    await ok(apiCall(a, "POST", `/core/guestbooks/${me.memberNo}`, { message: `Hello from Sage ${stamp}` }));
    // A first message is a request; my answer accepts it; a's next messages reach me as messages.
    await privateMessage(a, me, "May I write to you?");
    await privateMessage(me, a, "Yes, please.");
    await privateMessage(a, me, `Thank you ${stamp}`);
    const note = await privateMessage(a, me, `Only for you ${stamp}`, PUBLIC_CHATROOM_ID);
    // A mission a submits to me (I review it) and one of mine that a reviews.
    const description = "Kneel for ten minutes at dawn, then write down in detail what you felt and learned.";
    const mine = await ok(apiCall(me, "POST", "/sns/tasks", { subject: `Dawn ${stamp}`, description }));
    const submitted = (await ok(apiCall(a, "POST", `/sns/tasks/${mine.idTask}/take-up`))).idMission as number;
    await ok(apiCall(a, "PUT", "/sns/missions", { id: submitted, description: "I knelt." }));
    await ok(apiCall(a, "POST", "/sns/missions/submit", { id: submitted }));
    const theirs = await ok(apiCall(a, "POST", "/sns/tasks", { subject: `Dusk ${stamp}`, description }));
    const reviewed = (await ok(apiCall(me, "POST", `/sns/tasks/${theirs.idTask}/take-up`))).idMission as number;
    await ok(apiCall(me, "PUT", "/sns/missions", { id: reviewed, description: "I wrote it down." }));
    await ok(apiCall(me, "POST", "/sns/missions/submit", { id: reviewed }));
    await ok(apiCall(a, "POST", "/sns/missions/confirm", { id: reviewed, remark: "Well done." }));
    // Older notices, to show short ages: the follow two hours ago, the guestbook message five days ago.
    await expect.poll(async () => (await ok(apiCall(me, "GET", "/core/notifications?pageSize=50"))).items.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(7);
    localSql(
      `update notifications set created_at = created_at - 7200000 where member_id = '${me.memberId}' and type = 'follow'; ` +
        `update notifications set created_at = created_at - 432000000 where member_id = '${me.memberId}' and type = 'guestbook'`,
    );

    const s = await newPage(browser);
    await loginThroughPage(s.page, me.email, me.password);
    await gotoHydrated(s.page, "/smp/message");
    // §2: the red New marker while chatroom messages are unread.
    // The page's own link; the bottom bar has a Chats tab too.
    const chats = s.page.getByRole("main").getByRole("link", { name: /^Chats/ });
    await chats.locator(".new-marker").waitFor();
    await s.page.getByRole("tab", { name: /Notification/ }).click();
    const row = (text: string | RegExp) => s.page.locator(".notice", { hasText: text }).first();
    await see(s.page.locator(".notice"), "followed you");
    expect(await row("followed you").locator(".notice-time").textContent()).toBe("2h");
    expect(await row("left a message").locator(".notice-time").textContent()).toBe("5d");
    for (const time of await s.page.locator(".notice-time").allTextContents()) expect(time).toMatch(/^(now|\d+[mhdw])$/);
    // One or two lines each on a phone.
    for (const height of await s.page.locator(".notice-text").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height))) {
      expect(height).toBeLessThanOrEqual(44);
    }
    await screenshot(s.page, "notify-01-notifications-phone");
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);

    // Each kind opens its target.
    const hrefs = await s.page.locator("a.notice-link").evaluateAll((els) => els.map((el) => el.getAttribute("href")));
    const expected = [
      `/smp/share/${a.memberNo}`,
      "/smp/guestbook",
      "/smp/notification",
      `/smp/notification/${dm}`,
      `/smp/notes/${note.idChatroomMessage}`,
      `/smp/review/${submitted}`,
      `/smp/mission/${reviewed}`,
    ];
    for (const href of expected) expect(hrefs).toContain(href);
    const opens = async (href: string, shows: Locator | null) => {
      await gotoHydrated(s.page, "/smp/message");
      await s.page.locator(`a.notice-link[href="${href}"]`).first().click();
      await s.page.waitForURL(`**${href}`);
      if (shows) await shows.first().waitFor();
    };
    await opens(`/smp/share/${a.memberNo}`, s.page.getByRole("heading", { name: `Sage ${stamp}` }));
    await opens("/smp/guestbook", s.page.getByText(`Hello from Sage ${stamp}`));
    await opens(`/smp/notes/${note.idChatroomMessage}`, s.page.getByText(`Only for you ${stamp}`));
    await opens(`/smp/review/${submitted}`, s.page.getByText(`Dawn ${stamp}`));
    await opens(`/smp/mission/${reviewed}`, s.page.getByText(`Dusk ${stamp}`));
    await opens("/smp/notification", null);
    // The conversation: reading it clears the New marker.
    await opens(`/smp/notification/${dm}`, s.page.getByText(`Thank you ${stamp}`));
    await screenshot(s.page, "notify-02-conversation-phone");
    await expect.poll(async () => (await ok(apiCall(me, "GET", "/sns/chatroom/unread-counts"))).total, { timeout: 10_000 }).toBe(0);
    await gotoHydrated(s.page, "/smp/message");
    await chats.waitFor();
    expect(await chats.locator(".new-marker").count()).toBe(0);

    // A new message while the page is open brings the marker back, live.
    await privateMessage(a, me, `One more ${stamp}`);
    await chats.locator(".new-marker").waitFor({ timeout: 15_000 });
    await screenshot(s.page, "notify-03-new-marker-phone");
    expect(s.consoleErrors).toEqual([]);
    await s.context.close();
  });
});
