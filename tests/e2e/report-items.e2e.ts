import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { apiSignUp, apiSignUpPoster, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localSql } from "./support/local-api";

// README Decisions "Block evasion and per-item reports": Report on one message hides it for me at once, I am told the
// outcome, and a block may also cover new accounts this person makes (shown in Settings' blocked list).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("per-item reports and block evasion at phone size", () => {
  it("reports one message from its menu, reads the outcome, then blocks with 'also new accounts'", async () => {
    const [me, author, op] = [await apiSignUpPoster(), await apiSignUpPoster(), await apiSignUp()];
    localSql(`insert into operators (project_code, member_id, created_at) values ('SMP', '${op.memberId}', ${Date.now()})`);
    const stamp = Date.now();
    for (const [i, text] of [`one bad line ${stamp}`, `one fine line ${stamp}`].entries()) {
      expect((await apiCall(author, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { message: text, requestId: `report-e2e-${i}-${stamp}` })).status).toBe(200);
    }

    const { page, context, consoleErrors } = await newPage(browser, { viewport: "phone" });
    await loginThroughPage(page, me.email, me.password);
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const bad = page.locator(".chat-message", { hasText: `one bad line ${stamp}` });
    await bad.waitFor();
    await bad.getByRole("button", { name: /^Report .*'s post$/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("What is wrong? (optional)").fill("insulting");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "report-items-00-dialog");
    await dialog.getByRole("button", { name: "Report", exact: true }).click();
    await see(page.locator(".toast"), "Reported — hidden for you");
    await bad.waitFor({ state: "detached" });
    await page.locator(".chat-message", { hasText: `one fine line ${stamp}` }).waitFor();
    await screenshot(page, "report-items-01-hidden");
    // Others still see it until an operator decides.
    const stranger = await apiSignUp();
    const theirs = await apiCall(stranger, "GET", `/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`);
    expect(theirs.body.info.map((m: { message: string }) => m.message)).toContain(`one bad line ${stamp}`);

    // An operator dismisses the case; I am told the outcome in my notifications.
    expect((await apiCall(op, "POST", `/core/moderation/SMP/members/${author.memberNo}/decisions`, { action: "dismiss" })).status).toBe(200);
    await gotoHydrated(page, "/smp/message");
    await page.getByRole("tab", { name: /Notification/ }).click();
    await see(page.locator(".notices"), "A report you made was reviewed: no action was taken.");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "report-items-02-outcome");

    // Block from the profile, also blocking new accounts; Settings' blocked list says so.
    await gotoHydrated(page, `/smp/share/${author.memberNo}`);
    await page.getByLabel("Also block new accounts this person makes").check();
    await page.getByRole("button", { name: "Block", exact: true }).click();
    await page.locator(".block-armed").click();
    await page.getByRole("button", { name: "Unblock" }).waitFor();
    await gotoHydrated(page, "/smp/settings");
    await see(page.locator("main"), "New accounts blocked too");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, "report-items-03-blocked-list");

    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
