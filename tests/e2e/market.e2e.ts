import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see, avatarJpeg } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function apiCall(member: { headers: Record<string, string> }, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl()}/api/v7/private${path}`, {
    method,
    headers: { ...member.headers, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as { returnCode: string; info: any };
}

/** A member with a role, a profile and a qualified avatar, made through the API (tests make their own data). */
async function memberWith(profile: { nickname: string; introduction: string; multiGender: number }, hue: number) {
  const m = await apiSignUp();
  const reply = await apiCall(m, "PATCH", `/core/profiles/${m.memberId}`, profile);
  expect(reply.returnCode).toBe("000000");
  const form = new FormData();
  form.set("type", "avatar");
  form.set("file", new Blob([new Uint8Array(avatarJpeg(hue))], { type: "image/jpeg" }), "avatar.jpg");
  const upload = await fetch(`${baseUrl()}/api/v7/private/core/files/SMP/${m.memberId}`, { method: "POST", headers: m.headers, body: form });
  expect(((await upload.json()) as { returnCode: string }).returnCode).toBe("000000");
  return { ...m, nickname: profile.nickname };
}

describe("market journey", () => {
  it("sends logged-out visitors to login", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/smp/market");
    expect(new URL(page.url()).pathname).toBe("/smp/login");
    await context.close();
  });

  it("a visitor joins a mistress from the market page; the mistress frees them with a two-step confirm", async () => {
    const stamp = Date.now().toString(36);
    const mistress = await memberWith({ nickname: `Lady ${stamp}`, introduction: "Strict, fair and patient. Protocol matters to me.", multiGender: 2 }, 10);
    const visitor = await memberWith({ nickname: `Pet ${stamp}`, introduction: "Curious and eager to learn good manners.", multiGender: 4 }, 60);

    // The visitor: market page first, then the mistress's market page.
    const v = await newPage(browser);
    await loginThroughPage(v.page, visitor.email, visitor.password);
    await gotoHydrated(v.page, "/smp/market");
    await see(v.page.getByRole("heading", { level: 1 }), "Market");
    await v.page.getByLabel("Search by nickname").fill(`Lady ${stamp}`);
    await v.page.getByRole("button", { name: "Search", exact: true }).click();
    const results = v.page.getByRole("list", { name: "Search results" });
    await see(results, `Lady ${stamp}`);
    await screenshot(v.page, "market-01-market-phone");

    await results.getByRole("link").first().click();
    await v.page.waitForURL(`**/smp/market/${mistress.memberNo}`);
    await v.page.waitForSelector("html[data-hydrated]");
    const join = v.page.getByRole("button", { name: "Serve this mistress" });
    await join.click();
    await see(v.page.getByRole("alertdialog"), "You cannot leave on your own");
    await v.page.getByRole("button", { name: "Join", exact: true }).click();
    await see(v.page.getByRole("status").or(v.page.locator(".toast")), `You now belong to Lady ${stamp}`);
    const list = v.page.getByRole("list", { name: `Sub-members of Lady ${stamp}` });
    await see(list, `Pet ${stamp}`);
    // Irreversible by the visitor: no join, no free control for them.
    expect(await v.page.getByRole("button", { name: "Serve this mistress" }).count()).toBe(0);
    expect(await v.page.getByRole("button", { name: /^Free / }).count()).toBe(0);
    await screenshot(v.page, "market-02-joined-phone");
    expect(v.consoleErrors).toEqual([]);
    await v.context.close();

    // The mistress frees them: first step, second step, then the list is empty.
    const m = await newPage(browser, { viewport: "desktop" });
    await loginThroughPage(m.page, mistress.email, mistress.password);
    await gotoHydrated(m.page, `/smp/market/${mistress.memberNo}`);
    const mine = m.page.getByRole("list", { name: `Sub-members of Lady ${stamp}` });
    await see(mine, `Pet ${stamp}`);
    await m.page.getByRole("button", { name: `Free Pet ${stamp}` }).click();
    await see(m.page.getByRole("alertdialog"), `Let Pet ${stamp} go?`);
    await m.page.getByRole("button", { name: "Continue" }).click();
    await see(m.page.getByRole("alertdialog"), "Are you sure?");
    await screenshot(m.page, "market-03-free-confirm-desktop");
    await m.page.getByRole("button", { name: "Free", exact: true }).click();
    await see(m.page.locator(".toast"), `Pet ${stamp} is free.`);
    await see(m.page.locator(".submembers"), "No sub-members yet.");
    const after = await apiCall(mistress, "GET", `/sns/sub-members/SMP/${mistress.memberNo}`);
    expect(after.info.subMembers).toEqual([]);
    const history = await apiCall(visitor, "GET", `/sns/hierarchy/SMP/${visitor.memberNo}/history`);
    expect(history.info.map((h: { event: string }) => h.event)).toEqual(["freed", "joined"]);
    await gotoHydrated(m.page, "/smp/market");
    await screenshot(m.page, "market-04-market-desktop");
    const overflow = await m.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    expect(overflow).toBe(false);
    expect(m.consoleErrors).toEqual([]);
    await m.context.close();
  });

  it("a member opts in on the Nearby screen at phone size; the share page carries only their cell, never the spot", async () => {
    const stamp = Date.now().toString(36);
    const exact = { latitude: 35.6581234, longitude: 139.7016789 };
    // Exact digits and the 9- and 7-character geohash of the spot (xn76fgret): none may reach anyone else.
    const needles = ["35.658123", "139.701678", "xn76fgret", "xn76fgr"];
    const owner = await memberWith({ nickname: `Maple ${stamp}`, introduction: "Likes long walks, short leashes.", multiGender: 4 }, 120);
    const viewer = await memberWith({ nickname: `Birch ${stamp}`, introduction: "New in town, looking for a mentor.", multiGender: 1 }, 200);
    expect((await apiCall(viewer, "PUT", `/core/geolocation/${viewer.memberId}`, { latitude: 35.7, longitude: 139.8 })).returnCode).toBe("000000");

    const o = await newPage(browser);
    await o.context.grantPermissions(["geolocation"], { origin: baseUrl() });
    await o.context.setGeolocation(exact);
    await loginThroughPage(o.page, owner.email, owner.password);
    await gotoHydrated(o.page, "/smp/market");
    const show = o.page.getByRole("switch", { name: "Show me on maps and nearby" });
    expect(await show.getAttribute("aria-checked")).toBe("false");
    await see(o.page.locator("#show-position-hint"), "never your exact spot");
    // Before opting in, sharing a position for the Nearby list shows the member to nobody.
    const nearby = o.page.locator('section[aria-labelledby="market-nearby"]');
    await nearby.getByRole("button", { name: "Who is nearby?" }).click();
    await nearby.locator(".market-map").waitFor();
    await nearby.getByRole("list", { name: "Members nearby" }).or(nearby.getByText("Nobody here yet.")).first().waitFor();
    expect((await apiCall(viewer, "GET", `/core/profiles/SMP/member/${owner.memberNo}`)).info).toMatchObject({ latitude: null, distanceKm: null, bearing: null });
    await show.click();
    await see(o.page.locator(".toast"), "Others nearby can now see your approximate area.");
    expect(await show.getAttribute("aria-checked")).toBe("true");
    await screenshot(o.page, "market-06-nearby-opt-in-phone");
    expect(await o.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
    const mine = (await apiCall(owner, "GET", `/core/profiles/${owner.memberId}`)).info;
    expect(mine).toMatchObject({ ...exact, showPosition: true });
    expect(o.consoleErrors).toEqual([]);
    await o.context.close();

    // The share page: HTML and loader data for a visitor and for a signed-in member hold the cell, not the spot.
    const visitorHtml = await (await fetch(`${baseUrl()}/smp/share/${owner.memberNo}`)).text();
    const v = await newPage(browser);
    await loginThroughPage(v.page, viewer.email, viewer.password);
    const response = await v.page.goto(`/smp/share/${owner.memberNo}`);
    const memberHtml = (await response?.text()) ?? "";
    await v.page.waitForSelector("html[data-hydrated]");
    for (const html of [visitorHtml, memberHtml]) {
      expect(html).toContain(`Maple ${stamp}`);
      for (const needle of needles) expect(html).not.toContain(needle);
    }
    // A member sees the cell; a visitor no position at all.
    expect(memberHtml).toContain("xn76fg");
    expect(visitorHtml).not.toContain("xn76fg");
    await see(v.page.locator(".stats-row"), /About \d+ km away/);
    await screenshot(v.page, "market-07-share-cell-phone");
    expect(v.consoleErrors).toEqual([]);
    await v.context.close();
  });

  it("a master bids for a member on the market from a bidding card", async () => {
    const stamp = Date.now().toString(36);
    const seller = await memberWith({ nickname: `Sir ${stamp}`, introduction: "Old-school and kind. Sold with a heavy heart.", multiGender: 1 }, 20);
    const sub = await memberWith({ nickname: `Wren ${stamp}`, introduction: "Quiet, loyal and fond of rope and tea.", multiGender: 3 }, 40);
    const bidder = await memberWith({ nickname: `Domme ${stamp}`, introduction: "Firm rules, warm aftercare.", multiGender: 2 }, 80);
    expect((await apiCall(sub, "POST", "/sns/sub-members/SMP/join", { masterMemberNo: seller.memberNo })).returnCode).toBe("000000");
    expect((await apiCall(seller, "POST", "/sns/game/market/slave", { simpleCode: sub.memberNo })).returnCode).toBe("000000");

    const b = await newPage(browser);
    await loginThroughPage(b.page, bidder.email, bidder.password);
    await gotoHydrated(b.page, "/smp/market");
    const card = b.page.locator(".bidding-card").filter({ hasText: `Wren ${stamp}` });
    await see(card, "Quiet, loyal and fond of rope and tea.");
    await card.getByRole("button", { name: `Bid for Wren ${stamp}` }).click();
    await see(b.page.locator(".toast"), `Your bid for Wren ${stamp} is in.`);
    await see(card, "1 bid");
    await card.getByRole("list", { name: "Latest bidders" }).waitFor();
    await screenshot(b.page, "market-05-bid-phone");
    expect(b.consoleErrors).toEqual([]);
    await b.context.close();
  });
});
