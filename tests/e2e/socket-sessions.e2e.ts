import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { apiSignUp, baseUrl, gotoHydrated, isSessionEndRefusal, launchBrowser, loginThroughPage, newPage, see } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** README Decisions "Sockets end with their session": the browser side of a 4001 close. */
describe("a session ended on another device", () => {
  it("closes the page's live streams, sends the member to login and does not reconnect", async () => {
    const member = await apiSignUp();
    const { page, consoleErrors } = await newPage(browser);
    await loginThroughPage(page, member.email, member.password);
    const sockets: string[] = [];
    page.on("websocket", (socket) => sockets.push(socket.url()));
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await see(page.getByRole("heading", { level: 1 }), "Public chat");
    await expect.poll(() => sockets.some((url) => url.includes("/parties/chat-room/")), { timeout: 10_000 }).toBe(true);
    // The shell's own streams (inbox, presence) open 1.2 s after the page: wait for them and a quiet second, so a
    // socket counted below can only be a reconnect.
    await expect.poll(() => sockets.some((url) => url.includes("/parties/member-inbox/")), { timeout: 10_000 }).toBe(true);
    let counted = -1;
    const settled = () => {
      const same = sockets.length === counted;
      counted = sockets.length;
      return same;
    };
    await expect.poll(settled, { timeout: 10_000, interval: 1000 }).toBe(true);

    // The sign-up session (another device) changes the password: every other session ends, the browser's among them.
    const changed = await fetch(`${baseUrl()}/api/v7/private/core/members/password/${member.memberId}`, {
      method: "PUT",
      headers: { ...member.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ oldPassword: member.password, newPassword: "a brand new password" }),
    });
    expect(changed.status).toBe(200);
    const before = sockets.length;
    await page.waitForURL(/\/smp\/login/, { timeout: 10_000 });
    // No reconnect attempt between the close and the login page (partysocket would retry within about a second).
    expect(sockets.length).toBe(before);
    // A stream caught mid-handshake by the session's end is refused by the server, which the browser logs. That
    // refusal is the point; any other console error is not.
    expect(consoleErrors.filter((error) => !isSessionEndRefusal(error))).toEqual([]);
  });
});
