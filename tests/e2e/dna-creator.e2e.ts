import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSignUpPoster, avatarJpeg, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall } from "./support/local-api";

/**
 * DNA pairing and creator profiles at phone size (README Decisions "DNA pairing and creator profiles"): a member fills
 * in the creator profile on My profile, logo included; another member, reading in Japanese, opens the public profile
 * and sees the creator card (links with rel="noopener noreferrer nofollow ugc", the logo from /media) and the DNA
 * reading with its reasons worded in Japanese; a visitor sees the logo's blurred rendition and is asked to log in.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("DNA pairing and creator profiles", () => {
  it("a member fills the creator profile with a logo; another sees it and the DNA reading in Japanese", async () => {
    const [creator, viewer] = [await apiSignUpPoster(), await apiSignUpPoster()];
    // Aries, male S seeking a male M; the viewer is a Leo, male M seeking a male S. Both hold bondage (1) and aftercare (13).
    expect((await apiCall(creator, "PATCH", `/core/profiles/${creator.memberId}`, { nickname: "Rope Maker", introduction: "I teach rope and make tools for the community.", birthday: "1991-04-10", multiGender: 1, lookFor: 3, language: "en" })).body.returnCode).toBe("000000");
    expect((await apiCall(viewer, "PATCH", `/core/profiles/${viewer.memberId}`, { nickname: "Curious Reader", introduction: "Reading profiles in Japanese, looking for a patient teacher.", birthday: "1990-07-23", multiGender: 3, lookFor: 1, language: "ja" })).body.returnCode).toBe("000000");
    for (const m of [creator, viewer]) for (const idCharacter of [1, 13]) expect((await apiCall(m, "POST", `/sns/characters/${m.memberId}`, { idCharacter })).body.returnCode).toBe("000000");

    // The creator fills the creator profile on My profile.
    const c = await newPage(browser);
    await loginThroughPage(c.page, creator.email, creator.password);
    await gotoHydrated(c.page, "/smp/profile");
    const form = c.page.getByRole("form", { name: "Creator profile" });
    await form.getByRole("textbox", { name: "Company or studio" }).fill("Knot Studio");
    await form.getByRole("textbox", { name: "Title", exact: true }).fill("Lead rigger");
    await form.getByRole("textbox", { name: "Where I work" }).fill("Osaka");
    await form.getByRole("textbox", { name: "About my work" }).fill("Hand-dyed jute and beginner workshops.");
    await form.getByRole("button", { name: "Add a link" }).click();
    await form.getByRole("textbox", { name: "Link 1 address" }).fill("https://knots.example.com/shop");
    await form.getByRole("textbox", { name: "Link 1 title" }).fill("Rope shop");
    const [chooser] = await Promise.all([c.page.waitForEvent("filechooser"), form.getByRole("button", { name: "Add a logo to link 1" }).click()]);
    await chooser.setFiles({ name: "logo.jpg", mimeType: "image/jpeg", buffer: Buffer.from(avatarJpeg(40, 160)) });
    await expect.poll(() => form.getByRole("img", { name: "Logo of link 1" }).getAttribute("src"), { timeout: 15_000 }).toMatch(/^\/media\/SMP\/\d+\/logo\//);
    await form.getByRole("button", { name: "Save creator profile" }).click();
    await see(c.page.locator("body"), "Creator profile saved");
    await form.scrollIntoViewIfNeeded();
    await screenshot(c.page, "dna-creator-01-my-profile-creator");
    const saved = (await apiCall(creator, "GET", `/core/creator-profiles/SMP/${creator.memberNo}`)).body.info;
    expect(saved).toMatchObject({ company: "Knot Studio", title: "Lead rigger", location: "Osaka", links: [{ url: "https://knots.example.com/shop", title: "Rope shop", logoBlur: false }] });
    expect(c.consoleErrors).toEqual([]);
    await c.context.close();

    // The viewer, in Japanese, opens the creator's public profile.
    const v = await newPage(browser, { locale: "en-US" });
    await gotoHydrated(v.page, "/smp/login");
    await v.page.getByRole("button", { name: "日本語" }).click();
    await see(v.page.getByRole("heading", { level: 1 }), "ログイン");
    await v.page.locator("input[type=email]").fill(viewer.email);
    await v.page.locator("input[type=password]").fill(viewer.password);
    await v.page.locator("input[type=password]").press("Enter");
    await v.page.waitForURL("**/smp/home");
    await gotoHydrated(v.page, `/smp/share/${creator.memberNo}`);
    const card = v.page.getByRole("region", { name: "クリエイター" });
    await see(card, "Lead rigger · Knot Studio");
    await see(card, "拠点：Osaka");
    const link = card.getByRole("link", { name: /Rope shop/ });
    expect(await link.getAttribute("href")).toBe("https://knots.example.com/shop");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow ugc");
    expect(await link.locator("img").getAttribute("src")).toBe(saved.links[0].logo);

    const dna = v.page.getByRole("region", { name: "DNA 相性" });
    await see(dna, /相性 \d+%/);
    const reasons = dna.getByRole("list", { name: "理由" });
    await see(reasons, "獅子座と牡羊座はどちらも火の星座です");
    await see(reasons, "あなたは男性Sを探していて、相手はその役割です");
    await see(reasons, "相手はあなたと同じ男性Mを探しています");
    await see(reasons, "共通の好み 2 件：緊縛、アフターケア");
    // No server English reaches the reasons.
    expect(await reasons.innerText()).not.toMatch(/[A-Za-z]{3,}/);
    await dna.scrollIntoViewIfNeeded();
    await screenshot(v.page, "dna-creator-02-public-profile-ja");
    expect(v.consoleErrors).toEqual([]);
    await v.context.close();

    // A visitor: the creator card with the logo's blurred rendition, and a prompt to log in instead of a reading.
    const visitor = await newPage(browser);
    await gotoHydrated(visitor.page, `/smp/share/${creator.memberNo}`);
    const visitorCard = visitor.page.getByRole("region", { name: "Creator" });
    await see(visitorCard, "Knot Studio");
    expect(await visitorCard.getByRole("link", { name: /Rope shop/ }).locator("img").getAttribute("src")).toMatch(/^\/media\/SMP\/\d+\/blur\//);
    await see(visitor.page.getByRole("link", { name: "Log in to see your DNA pairing with this member" }), "Log in");
    expect(await visitor.page.getByRole("region", { name: "DNA pairing" }).count()).toBe(0);
    await screenshot(visitor.page, "dna-creator-03-visitor");
    expect(visitor.consoleErrors).toEqual([]);
    await visitor.context.close();
  });
});
