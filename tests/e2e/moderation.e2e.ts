import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGE_COOKIE } from "../../worker/contract/session.constants";
import { apiSignUp, baseUrl, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localSql as sql } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("moderation journey (phone)", () => {
  it("an operator upholds a report and lifts it in Japanese; the member reads the outcome and appeals once", async () => {
    const [operator, target, reporter, bystander] = [await apiSignUp(), await apiSignUp(), await apiSignUp(), await apiSignUp()];
    sql(`insert into operators (project_code, member_id, created_at) values ('SMP', '${operator.memberId}', ${Date.now()})`);
    expect((await apiCall(reporter, "POST", "/core/reports", { targetMemberNo: target.memberNo, reason: "Threats in the public chat" })).status).toBe(200);

    // A member who is not an operator: no link, and the page is a 404 from the server.
    const outsider = await newPage(browser);
    await loginThroughPage(outsider.page, bystander.email, bystander.password);
    await gotoHydrated(outsider.page, "/smp/profile");
    expect(await outsider.page.getByRole("link", { name: "Moderation queue" }).count()).toBe(0);
    const refused = await outsider.page.goto("/smp/moderation");
    expect(refused?.status()).toBe(404);
    await outsider.context.close();

    // The operator, in Japanese, opens the queue from navigation → My profile.
    const op = await newPage(browser);
    await loginThroughPage(op.page, operator.email, operator.password);
    await op.context.addCookies([{ name: LANGUAGE_COOKIE, value: "ja", url: baseUrl() }]);
    await gotoHydrated(op.page, "/smp/home");
    await op.page.getByRole("link", { name: "プロフィール", exact: true }).click();
    await op.page.waitForURL("**/smp/profile");
    await op.page.getByRole("link", { name: "モデレーションキュー" }).click();
    await op.page.waitForURL("**/smp/moderation");
    await op.page.getByRole("heading", { name: "モデレーション", exact: true }).waitFor();
    const card = op.page.getByRole("article", { name: target.memberNo! });
    await see(card, "Threats in the public chat");
    // The reporter is never shown to the operator.
    expect(await op.page.content()).not.toContain(reporter.memberNo!);
    expect(await hasHorizontalOverflow(op.page)).toBe(false);
    await screenshot(op.page, "moderation-01-queue-ja");

    await card.getByRole("combobox", { name: "停止期間" }).selectOption("72");
    await card.getByRole("button", { name: "認める：投稿停止" }).click();
    await card.getByRole("button", { name: "停止を解除" }).waitFor();
    const paused = await apiCall(target, "POST", "/core/leave-message", { code: reporter.memberNo, text: "hello" });
    expect(paused.body.returnCode).toBe("403208");
    await screenshot(op.page, "moderation-02-upheld-ja");
    await card.getByRole("button", { name: "停止を解除" }).click();
    await expect.poll(async () => op.page.getByRole("button", { name: "停止を解除" }).count()).toBe(0);
    expect(op.consoleErrors).toEqual([]);

    // The member reads the outcome (type + params, rendered in their language) and appeals once.
    const member = await newPage(browser);
    await loginThroughPage(member.page, target.email, target.password);
    await gotoHydrated(member.page, "/smp/message");
    await member.page.getByRole("tab", { name: /Notification/ }).click();
    await see(member.page.locator(".notices"), /Moderators paused your posting until/);
    await see(member.page.locator(".notices"), "Your posting pause was lifted.");
    await member.page.getByRole("button", { name: "Appeal" }).click();
    await member.page.getByLabel("Why should this be reviewed? (optional)").fill("I was quoting someone else.");
    await member.page.getByRole("button", { name: "Appeal" }).click();
    await see(member.page.getByRole("status").or(member.page.locator(".toast")).first(), "Your appeal was sent to the moderators");
    expect(await member.page.getByRole("button", { name: "Appeal" }).count()).toBe(0);
    expect(await hasHorizontalOverflow(member.page)).toBe(false);
    await screenshot(member.page, "moderation-03-appealed");
    expect(member.consoleErrors).toEqual([]);

    // A second appeal is refused; the first is in the operator's queue.
    const notices = await apiCall(target, "GET", "/core/notifications?pageSize=20");
    const suspended = (notices.body.info.items as { type: string; params: { outcome: string; idAction: number } }[]).find((n) => n.type === "moderation" && n.params.outcome === "suspended")!;
    const again = await apiCall(target, "POST", "/core/moderation/SMP/appeals", { idAction: suspended.params.idAction, text: "again" });
    expect(again.status).toBe(409);
    expect(again.body.returnCode).toBe("409611");
    await gotoHydrated(op.page, "/smp/moderation");
    await see(op.page.getByRole("article", { name: target.memberNo! }).filter({ hasText: "I was quoting someone else." }), "異議を認める");
    await screenshot(op.page, "moderation-04-appeal-ja");
    await op.context.close();
    await member.context.close();
  });
});
