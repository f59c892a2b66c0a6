import { PhotonImage } from "@cf-wasm/photon/node";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUp, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";

/**
 * §4 Closed profile at phone size (README Decisions "Closed profiles and what a visitor sees"): a visitor and a member
 * the owner has not let in get the stub, in the HTML and the loader data too; the banner's taps reveal no more.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Member = Awaited<ReturnType<typeof apiSignUp>>;

async function api(member: Member | null, method: string, apiPath: string, body?: unknown | FormData) {
  const headers: Record<string, string> = { ...(member?.headers ?? {}) };
  if (body !== undefined && !(body instanceof FormData)) headers["Content-Type"] = "application/json";
  const response = await fetch(`${baseUrl()}/api/v7${apiPath}`, { method, headers, body: body instanceof FormData ? body : body !== undefined ? JSON.stringify(body) : undefined });
  return (await response.json()) as { returnCode: string; info: any };
}

function png(size: number) {
  const pixels = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) pixels.set([90 + (i % 90), 110, 160, 255], i * 4);
  const image = new PhotonImage(pixels, size, size);
  const bytes = image.get_bytes();
  image.free();
  return bytes;
}

async function member(nickname: string, introduction: string) {
  const m = await apiSignUp();
  const form = new FormData();
  form.set("file", new Blob([png(320) as BlobPart], { type: "image/png" }), "a.png");
  form.set("type", "avatar");
  expect((await api(m, "POST", `/private/core/files/SMP/${m.memberId}`, form)).returnCode).toBe("000000");
  expect((await api(m, "PATCH", `/private/core/profiles/${m.memberId}`, { nickname, introduction, language: "en" })).returnCode).toBe("000000");
  return m;
}

describe("closed profiles", () => {
  it("shows a visitor and a member not let in the stub and the closed banner; a friend the profile", async () => {
    const secret = `closed-journey-${Date.now().toString(36)}`;
    const owner = await member("Closed Owner", `${secret} writes about limits and trust at length here.`);
    expect((await api(owner, "PATCH", `/private/core/profiles/${owner.memberId}`, { closed: true, skypeId: `skype-${secret}` })).returnCode).toBe("000000");

    // A visitor: the share page by path and by `s?c=`, the HTML and the loader data without the introduction.
    const visitor = await newPage(browser);
    for (const url of [`/smp/share/${owner.memberNo}`, `/smp/s?c=${owner.memberNo}`]) {
      const response = await visitor.page.goto(url);
      expect(await response!.text()).not.toContain(secret);
      await gotoHydrated(visitor.page, url);
      await see(visitor.page.getByRole("heading", { level: 1 }), "Closed Owner");
      await visitor.page.getByRole("button", { name: "This profile is closed. Tap 11 more times to view" }).waitFor();
      expect(await visitor.page.content()).not.toContain(secret);
    }
    const loaderData = await fetch(`${baseUrl()}/smp/share/${owner.memberNo}.data`);
    expect(loaderData.status).toBe(200);
    const loaderText = await loaderData.text();
    expect(loaderText).toContain("Closed Owner");
    expect(loaderText).not.toContain(secret);
    // The avatar is the rendition, never the original.
    expect(await visitor.page.getByRole("heading", { level: 1 }).locator("xpath=ancestor::section//img").first().getAttribute("src")).toContain("/blur/");
    // More than 10 taps reveal only the stub, with the message and the login prompt.
    for (let left = 11; left > 0; left--) await visitor.page.getByRole("button", { name: `This profile is closed. Tap ${left} more times to view` }).click();
    await see(visitor.page.getByRole("dialog"), "Log in to see members");
    await screenshot(visitor.page, "closed-01-visitor-login");
    await visitor.page.getByRole("button", { name: "Cancel" }).click();
    await see(visitor.page.getByRole("status"), "Only Closed Owner's friends and the members they follow can see it.");
    await screenshot(visitor.page, "closed-02-visitor-stub");
    expect(await visitor.page.content()).not.toContain(secret);
    expect(visitor.consoleErrors).toEqual([]);
    await visitor.context.close();

    // The same banner in Japanese.
    const ja = await newPage(browser, { locale: "ja-JP" });
    await gotoHydrated(ja.page, `/smp/share/${owner.memberNo}`);
    await ja.page.getByRole("button", { name: "このプロフィールは非公開です。あと 11 回タップで表示" }).waitFor();
    await ja.context.close();

    // A member the owner has not let in: the stub and the message, no login prompt.
    const stranger = await member("Curious Member", "Just looking around the community for now, thanks.");
    const other = await newPage(browser);
    await loginThroughPage(other.page, stranger.email, stranger.password);
    await gotoHydrated(other.page, `/smp/share/${owner.memberNo}`);
    for (let left = 11; left > 0; left--) await other.page.getByRole("button", { name: `This profile is closed. Tap ${left} more times to view` }).click();
    await see(other.page.getByRole("status"), "Only Closed Owner's friends and the members they follow can see it.");
    expect(await other.page.getByRole("dialog").count()).toBe(0);
    expect(await other.page.content()).not.toContain(secret);
    expect(other.consoleErrors).toEqual([]);
    await other.context.close();

    // A member the owner follows: the blurred profile behind the banner, then the introduction after the taps.
    const chosen = await member("Chosen Member", "Someone the owner follows and lets in to the profile.");
    expect((await api(owner, "POST", `/private/core/follows/${chosen.memberNo}`)).returnCode).toBe("000000");
    const friend = await newPage(browser);
    await loginThroughPage(friend.page, chosen.email, chosen.password);
    await gotoHydrated(friend.page, `/smp/share/${owner.memberNo}`);
    for (let left = 11; left > 0; left--) await friend.page.getByRole("button", { name: `This profile is closed. Tap ${left} more times to view` }).click();
    await see(friend.page.locator(".intro-text"), secret);
    await screenshot(friend.page, "closed-03-followed-member-profile");
    expect(friend.consoleErrors).toEqual([]);
    await friend.context.close();
  });
});
