import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { apiSignUp, apiSignUpPoster, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall } from "./support/local-api";

// README Decisions "Muted words": add a word in Settings, see a chat message hidden, show anyway; from a message's menu.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("muted words at phone size", () => {
  it("hides a Japanese-phrase chat message after a word is muted in Settings, shows it anyway, and mutes another word from a message", async () => {
    const [me, author] = [await apiSignUp(), await apiSignUpPoster()];
    const stamp = Date.now().toString(36);
    const send = async (message: string) => {
      const reply = await apiCall(author, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { message, requestId: `muted-e2e-${stamp}-${message.length}` });
      expect(reply.status).toBe(200);
      return reply.body.info.idChatroomMessage as number;
    };
    const japanese = await send(`最終回のネタバレ注意 ${stamp}`);
    const english = await send(`Big spoiler about the finale ${stamp}`);

    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(page, me.email, me.password);
    await gotoHydrated(page, "/smp/settings");
    const section = page.getByRole("region", { name: "Muted words" });
    await section.getByLabel("Word or phrase").fill("ネタバレ");
    await section.getByLabel("For how long").selectOption("7d");
    await section.getByRole("button", { name: "Mute", exact: true }).click();
    await see(page.locator(".toast"), "Muted: ネタバレ");
    await section.getByRole("button", { name: "Remove the muted word ネタバレ" }).waitFor();
    await see(section, "until");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await section.screenshot({ path: await screenshot(page, "muted-words-00-settings") });

    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const hidden = page.locator(`[data-message-id="${japanese}"]`);
    await see(hidden, "Hidden: contains a muted word");
    expect(await hidden.textContent()).not.toContain("最終回");
    await see(page.locator(`[data-message-id="${english}"]`), `Big spoiler about the finale ${stamp}`);
    await hidden.scrollIntoViewIfNeeded();
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "muted-words-01-hidden");
    await hidden.getByRole("button", { name: "Show anyway" }).click();
    await see(hidden, `最終回のネタバレ注意 ${stamp}`);
    await screenshot(page, "muted-words-02-shown-anyway");

    // From the place it acts on: a message's "Mute words…" adds a word; the next read hides that message too.
    const other = page.locator(`[data-message-id="${english}"]`);
    await other.getByRole("button", { name: "Mute words…" }).click();
    const dialog = page.getByRole("dialog", { name: "Muted words" });
    await dialog.getByLabel("Word or phrase").fill("SPOILER");
    await screenshot(page, "muted-words-03-dialog");
    await dialog.getByRole("button", { name: "Mute", exact: true }).click();
    await see(page.locator(".toast"), "Muted: SPOILER");
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await see(page.locator(`[data-message-id="${english}"]`), "Hidden: contains a muted word");
    await see(page.locator(`[data-message-id="${japanese}"]`), "Hidden: contains a muted word");

    // The author is not told and still sees their own words.
    const theirs = await apiCall(author, "GET", `/sns/chatroom/messages/${japanese}`);
    expect(theirs.body.info).toMatchObject({ message: `最終回のネタバレ注意 ${stamp}` });
    expect(theirs.body.info.mutedWord).toBeUndefined();

    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
