import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { apiSignUp, avatarJpeg, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("posting rules journey (phone)", () => {
  it("a fresh member without avatar is reminded before posting in the public chat, uploads an avatar and posts", async () => {
    const member = await apiSignUp();
    const { page, context, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, member.email, member.password);
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await see(page.getByRole("heading", { level: 1 }), "Public chat");

    // §5/§6: the reminder shows before anything is sent, and says what is missing.
    const reminder = page.locator(".posting-reminder");
    await see(reminder, "Incomplete profile: finish it before posting");
    await see(reminder, "Avatar not uploaded");
    await see(reminder, "Nickname not set");
    const send = page.getByRole("button", { name: "Send", exact: true });
    expect(await send.isDisabled()).toBe(true);
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("hello before my avatar");
    await box.press("Enter");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "posting-01-reminder-phone");
    // Nothing went out: the server holds no message of this member.
    const before = await apiCall(member, "GET", `/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=100`);
    expect(JSON.stringify(before.body.info)).not.toContain("hello before my avatar");
    // And asked directly, the server refuses with the §8 text.
    const refused = await apiCall(member, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${member.memberId}`, { message: "sneaky", requestId: `e2e-pr-${Date.now()}` });
    expect(refused).toMatchObject({ status: 403, body: { returnCode: "403204", returnMessage: "Posting failed: please upload an avatar first" } });

    // The reminder's link leads to My profile's avatar upload.
    await reminder.getByRole("link", { name: "Upload an avatar in My profile" }).click();
    await page.waitForURL("**/smp/profile#avatar-heading");
    await see(page.getByRole("heading", { level: 1 }), "My profile");
    const dir = path.resolve(import.meta.dirname, "screenshots");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "posting-avatar.jpg");
    writeFileSync(file, avatarJpeg(42, 320));
    await page.getByLabel("Avatar image file").setInputFiles(file);
    await see(page.locator(".toast"), "Uploaded successfully");
    await screenshot(page, "posting-02-avatar-uploaded-phone");

    // Back in the public chat the avatar line is gone and the message goes out.
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await expect.poll(async () => send.isDisabled(), { timeout: 10_000 }).toBe(false);
    expect(await page.getByText("Avatar not uploaded").count()).toBe(0);
    const hello = `hello with my avatar ${Date.now()}`;
    await page.getByLabel("Message", { exact: true }).fill(hello);
    await page.getByLabel("Message", { exact: true }).press("Enter");
    await see(page.getByRole("list", { name: "Messages" }), hello);
    // The page shows a sent message at once (§4) and the shared room's newest page is kept a few seconds
    // (README "The newest page of a shared room is kept per isolate"): ask until the server lists it.
    await expect
      .poll(async () => JSON.stringify((await apiCall(member, "GET", `/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=100`)).body.info), { timeout: 20_000, interval: 1000 })
      .toContain(hello);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "posting-03-posted-phone");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
