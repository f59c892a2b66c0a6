import { PhotonImage } from "@cf-wasm/photon/node";
import { md5 } from "js-md5";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { LANGUAGE_COOKIE } from "../../worker/contract/session.constants";
import { apiSignUp, apiSignUpPoster, baseUrl, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localRows } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});


/** A small real PNG for the image send. */
function smallPng() {
  const size = 32;
  const pixels = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) pixels.set([80 + (i % 90), 120, 160, 255], i * 4);
  const image = new PhotonImage(pixels, size, size);
  const bytes = image.get_bytes();
  image.free();
  return Buffer.from(bytes);
}

describe("chat journey", () => {
  it("A posts in public chat and B sees it live; A sends B an encrypted private message that B reads", async () => {
    const a = (await apiSignUpPoster()) as Awaited<ReturnType<typeof apiSignUp>> & { memberNo: string };
    const b = (await apiSignUpPoster()) as Awaited<ReturnType<typeof apiSignUp>> & { memberNo: string };
    const pa = await newPage(browser, { viewport: "desktop" });
    const pb = await newPage(browser);
    await loginThroughPage(pb.page, b.email, b.password);
    await loginThroughPage(pa.page, a.email, a.password);

    // Both open the public chat; B does not reload.
    await gotoHydrated(pb.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await gotoHydrated(pa.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await see(pa.page.getByRole("heading", { level: 1 }), "Public chat");
    const hello = `hello from A ${Date.now()}`;
    const box = pa.page.getByLabel("Message", { exact: true });
    await box.fill("   ");
    await box.press("Enter");
    await box.fill(hello);
    await box.press("Enter");
    await see(pa.page.getByRole("list", { name: "Messages" }), hello);
    await see(pb.page.getByRole("list", { name: "Messages" }), hello);
    await screenshot(pa.page, "chat-01-public-desktop");
    await screenshot(pb.page, "chat-02-public-phone");

    // Encrypted one-to-one message: B's shell publishes a public key once the page has settled (an idle
    // callback); until then a message to B would go as plain private text, so wait for the key.
    await expect.poll(() => String(localRows(`select public_key from profiles where member_id = '${b.memberId}'`)[0]?.public_key ?? ""), { timeout: 15_000 }).not.toBe("");
    await gotoHydrated(pa.page, `/smp/chatroom/${a.memberNo}/${b.memberNo}`);
    const secret = `our secret ${Date.now()}`;
    const dmBox = pa.page.getByLabel("Message", { exact: true });
    await dmBox.fill(secret);
    await dmBox.press("Enter");
    await see(pa.page.getByRole("list", { name: "Messages" }), secret);
    await screenshot(pa.page, "chat-03-direct-sender");
    // B's inbox stream lights the green social dot (a message request is waiting) without a reload.
    await pb.page.getByRole("link", { name: "Chats unread" }).waitFor({ state: "visible", timeout: 10_000 });

    // The server holds ciphertext only.
    const rows = localRows(`select message, payload from chat_messages where member_no = '${a.memberNo}' and chatroom_id = '${directChatroomId(a.memberNo, b.memberNo)}'`);
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.message)).toBe("");
    expect(String(rows[0]!.payload)).not.toContain(secret);
    expect(JSON.parse(String(rows[0]!.payload)).type).toBe("encrypted");

    // B: a stranger's message waits in the requests tray until accepted, then reads in clear.
    await gotoHydrated(pb.page, "/smp/notification");
    // The notifications prompt (a card above the chat list) is remembered once it has shown, by an effect after
    // hydration: ask until it is.
    await expect.poll(() => pb.page.evaluate(() => localStorage.getItem("hasSeenNotificationPopup"))).toBe("true");
    const tray = pb.page.getByRole("region", { name: "Message requests" });
    await see(tray, /sent you 1 message/);
    await screenshot(pb.page, "chat-04-requests-phone");
    await tray.getByRole("button", { name: "Accept" }).click();
    const chatList = pb.page.getByRole("list", { name: "Conversations" });
    await chatList.getByRole("link").first().click();
    await see(pb.page.getByRole("list", { name: "Messages" }), secret);
    await see(pb.page.getByRole("button", { name: /Back/ }), /Back/);
    await screenshot(pb.page, "chat-05-direct-recipient-phone");

    // An image in the private conversation is encrypted in the browser (both have keys; README Decisions "Everything
    // private is encrypted"): stored as opaque bytes of kind e2e, decrypted by both from a blob URL; without a
    // session, or at /media, it is not found.
    await pa.page.locator(".chat-send input[type=file]").setInputFiles({ name: "dm.png", mimeType: "image/png", buffer: smallPng() });
    const sentImage = pa.page.getByRole("list", { name: "Messages" }).locator("img.chat-image");
    const received = pb.page.getByRole("list", { name: "Messages" }).locator("img.chat-image");
    for (const image of [sentImage, received]) {
      await image.waitFor({ timeout: 20_000 });
      expect(await image.getAttribute("src")).toMatch(/^blob:/);
      await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    }
    const imageRows = localRows(`select payload from chat_messages where member_no = '${a.memberNo}' and payload like '%"media"%'`);
    const src = JSON.parse(String(imageRows[0]!.payload)).media as string;
    expect(src).toMatch(new RegExp(`^/private-media/SMP/${a.memberNo}/e2e/[A-Za-z0-9]{24}\\.bin$`));
    const asVisitor = await fetch(`${baseUrl()}${src}`);
    expect([asVisitor.status, asVisitor.headers.get("cache-control")]).toEqual([404, "private, no-store"]);
    expect((await fetch(`${baseUrl()}${src.replace("/private-media/", "/media/")}`)).status).toBe(404);

    // Notes page: reply in a thread.
    await gotoHydrated(pb.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await pb.page.getByRole("list", { name: "Messages" }).locator("li", { hasText: hello }).getByRole("link", { name: /repl/ }).click();
    await pb.page.waitForURL(/\/smp\/notes\/\d+/);
    await pb.page.waitForSelector("html[data-hydrated]");
    await pb.page.getByLabel("Your reply").fill("nice to meet you");
    await pb.page.getByRole("button", { name: "Reply", exact: true }).click();
    await see(pb.page.getByRole("list", { name: "Replies" }), "nice to meet you");
    await see(pb.page.getByRole("heading", { level: 2 }), "1 reply");
    await screenshot(pb.page, "chat-06-notes-phone");

    // Personal chatroom: chatroom/{md5 of member code}.
    await gotoHydrated(pa.page, `/smp/chatroom/${md5(a.memberNo)}`);
    await see(pa.page.getByRole("heading", { level: 1 }), "Personal chatroom");
    const personalBox = pa.page.getByLabel("Message", { exact: true });
    await personalBox.fill("my own room");
    await personalBox.press("Enter");
    await see(pa.page.getByRole("list", { name: "Messages" }), "my own room");

    for (const { page } of [pa, pb]) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      expect(overflow).toBe(false);
    }
    expect(pa.consoleErrors).toEqual([]);
    expect(pb.consoleErrors).toEqual([]);
    await pa.context.close();
    await pb.context.close();
  });

  it("A messages B from B's profile, waits in A's list, B accepts and replies, A reads it (phone)", async () => {
    const a = (await apiSignUpPoster()) as Awaited<ReturnType<typeof apiSignUp>> & { memberNo: string };
    const b = (await apiSignUpPoster()) as Awaited<ReturnType<typeof apiSignUp>> & { memberNo: string };
    const nickname = `Bea ${Date.now().toString(36)}`;
    localRows(`update profiles set nickname = '${nickname}' where member_id = '${b.memberId}'`);
    const pa = await newPage(browser);
    const pb = await newPage(browser);
    await loginThroughPage(pa.page, a.email, a.password);
    await loginThroughPage(pb.page, b.email, b.password);
    // B's browser publishes its device keys once its page has settled: until then A's first message would ask A to
    // send it unencrypted (a dialog this journey is not about).
    await expect.poll(async () => (await apiCall(b, "GET", "/sns/e2e-devices")).body.info.length, { timeout: 20_000 }).toBe(1);

    // A opens B's profile: a Message button (B takes strangers' first messages as requests) and B's personal chatroom.
    await gotoHydrated(pa.page, `/smp/share/${b.memberNo}`);
    const controls = pa.page.getByRole("region", { name: `Talk with ${nickname}` });
    await see(controls, "your first message arrives as a request");
    await expect.poll(() => controls.getByRole("link", { name: "Personal chatroom" }).getAttribute("href")).toBe(`/smp/chatroom/${md5(b.memberNo)}`);
    await screenshot(pa.page, "chat-08-profile-message-phone");
    await controls.getByRole("link", { name: "Message" }).click();
    await pa.page.waitForURL(new RegExp(`/smp/chatroom/${a.memberNo}/${b.memberNo}$`));
    await pa.page.waitForSelector("html[data-hydrated]");
    await see(pa.page.getByRole("heading", { level: 1 }), nickname);
    const first = `hello ${nickname}, from a newcomer`;
    const box = pa.page.getByLabel("Message", { exact: true });
    await box.fill(first);
    await box.press("Enter");
    await see(pa.page.getByRole("list", { name: "Messages" }), first);
    await screenshot(pa.page, "chat-09-conversation-titled-phone");

    // Back to A's chat list: the conversation is there, waiting for B; A has no requests tray of their own.
    await pa.page.getByRole("link", { name: "← Chats" }).click();
    await pa.page.waitForURL(/\/smp\/notification$/);
    const popupA = pa.page.getByRole("button", { name: "Not now" });
    if (await popupA.isVisible().catch(() => false)) await popupA.click();
    const mine = pa.page.getByRole("list", { name: "Conversations" }).getByRole("link", { name: new RegExp(nickname) });
    await see(mine, "waiting for acceptance");
    expect(await pa.page.getByRole("region", { name: "Message requests" }).count()).toBe(0);
    await screenshot(pa.page, "chat-10-waiting-phone");

    // B accepts the request and replies in the conversation.
    await gotoHydrated(pb.page, "/smp/notification");
    const popupB = pb.page.getByRole("button", { name: "Not now" });
    if (await popupB.isVisible().catch(() => false)) await popupB.click();
    await pb.page.getByRole("region", { name: "Message requests" }).getByRole("button", { name: "Accept" }).click();
    await pb.page.getByRole("list", { name: "Conversations" }).getByRole("link", { name: new RegExp(a.memberNo) }).click();
    await see(pb.page.getByRole("list", { name: "Messages" }), first);
    const reply = `welcome, newcomer ${Date.now()}`;
    const replyBox = pb.page.getByLabel("Message", { exact: true });
    await replyBox.fill(reply);
    await replyBox.press("Enter");
    await see(pb.page.getByRole("list", { name: "Messages" }), reply);

    // A reads the reply directly (no request for A), and the waiting marker is gone.
    await gotoHydrated(pa.page, "/smp/notification");
    const conversation = pa.page.getByRole("list", { name: "Conversations" }).getByRole("link", { name: new RegExp(nickname) });
    // Its preview is "🔒 Encrypted" once A's browser has published a key: the text itself is read in the conversation.
    await see(conversation, new RegExp(`${reply}|Encrypted`));
    expect(await conversation.getByText("waiting for acceptance").count()).toBe(0);
    expect(await pa.page.getByRole("region", { name: "Message requests" }).count()).toBe(0);
    await gotoHydrated(pa.page, `/smp/chatroom/${a.memberNo}/${b.memberNo}`);
    await see(pa.page.getByRole("list", { name: "Messages" }), reply);
    await screenshot(pa.page, "chat-11-reply-phone");

    // A new member's empty chat list offers the public chat, here in Traditional Chinese.
    const c = await apiSignUp();
    const pc = await newPage(browser);
    await loginThroughPage(pc.page, c.email, c.password);
    // The member's language choice (cookie and local storage, as the language switcher stores it).
    await pc.context.addCookies([{ name: LANGUAGE_COOKIE, value: "zh-TW", url: baseUrl() }]);
    await pc.page.evaluate(() => localStorage.setItem("language", "zh-TW"));
    await gotoHydrated(pc.page, "/smp/notification");
    await pc.page.getByRole("link", { name: "前往公開聊天室" }).click();
    await pc.page.waitForURL(new RegExp(`/smp/public-chat/${PUBLIC_CHATROOM_ID}$`));

    for (const { page } of [pa, pb, pc]) expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
    expect(pa.consoleErrors).toEqual([]);
    expect(pb.consoleErrors).toEqual([]);
    await pa.context.close();
    await pb.context.close();
    await pc.context.close();
  });

  it("a member whose browser kept only the session cookie still gets live messages, without a reconnecting notice", async () => {
    const c = await apiSignUp();
    const poster = await apiSignUpPoster();
    const pc = await newPage(browser);
    await loginThroughPage(pc.page, c.email, c.password);
    // The stored keys are gone (another tab logged them out, storage was cleared): the cookie still holds the session.
    await pc.page.evaluate(() => {
      for (const key of ["token", "memberId", "memberNo", "sessionId"]) localStorage.removeItem(key);
    });
    await gotoHydrated(pc.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    await see(pc.page.getByRole("heading", { level: 1 }), "Public chat");
    // The socket gets its ticket with the cookie: a message posted elsewhere arrives without a reload.
    const text = `cookie only ${Date.now()}`;
    await expect
      .poll(async () => {
        await apiCall(poster, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${poster.memberId}`, { message: text, requestId: `cookie-${Date.now()}` });
        return pc.page.getByRole("list", { name: "Messages" }).getByText(text).count();
      }, { timeout: 15_000, interval: 2_000 })
      .toBeGreaterThan(0);
    expect(await pc.page.getByRole("status").filter({ hasText: "Reconnecting" }).count()).toBe(0);
    await screenshot(pc.page, "chat-07-cookie-only-phone");
    expect(pc.consoleErrors).toEqual([]);
    await pc.context.close();
  });

  it("a new member's send box carries the profile reminder: scroll-to-top never covers it (phone)", async () => {
    const m = await apiSignUp();
    // Enough messages for the page to scroll, whichever files ran before this one.
    const poster = await apiSignUpPoster();
    for (let i = 0; i < 12; i++) {
      const posted = await apiCall(poster, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${poster.memberId}`, { message: `filling the room ${i}`, requestId: `fill-${Date.now()}-${i}` });
      expect(posted.status).toBe(200);
    }
    const pm = await newPage(browser);
    await loginThroughPage(pm.page, m.email, m.password);
    await gotoHydrated(pm.page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const sendBox = pm.page.locator(".chat-send");
    await see(sendBox, "Incomplete profile: finish it before posting");
    const room = await pm.page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(room).toBeGreaterThan(250);
    const button = pm.page.getByRole("button", { name: "Back to top" });
    // Where the button is, against the send box, the navigation and the window: "clear", "none" (not shown) or why not.
    const placement = async () => {
      if (!(await button.count())) return "none";
      const [b, box, nav] = await Promise.all([button.boundingBox(), sendBox.boundingBox(), pm.page.locator(".bottom-nav").boundingBox()]);
      if (!b || !box || !nav) return "missing";
      const height = await pm.page.evaluate(() => window.innerHeight);
      const clear = (o: { y: number; height: number }) => b.y + b.height <= o.y || b.y >= o.y + o.height;
      return clear(box) && clear(nav) && b.y >= 0 && b.y + b.height <= height ? "clear" : `button ${b.y}-${b.y + b.height}, send box ${box.y}-${box.y + box.height}, navigation ${nav.y}, window ${height}`;
    };
    // Just past the button's threshold (200 px), further down and at the end, where the page's last cards come
    // below the box: the button clears the box and the navigation at each.
    for (const y of [210, Math.round((210 + room) / 2), room]) {
      await pm.page.evaluate((top) => window.scrollTo(0, top), y);
      await button.waitFor({ state: "visible" });
      await expect.poll(placement).toBe("clear");
    }
    await screenshot(pm.page, "chat-12-scroll-top-above-send-phone");
    // The same phone held sideways: the box takes most of the window's height. Wherever the button shows, it is
    // whole, inside the window and clear of the box; where there is no room for it, it is not shown at all.
    await pm.page.setViewportSize({ width: 844, height: 390 });
    const sideways = await pm.page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    for (const y of [210, Math.round((210 + sideways) / 2), sideways]) {
      await pm.page.evaluate((top) => window.scrollTo(0, top), y);
      await expect.poll(placement).toMatch(/^(clear|none)$/);
    }
    // Hidden only where it has no room: at the end of the page, below the box, it is back (polled: the button
    // follows the scroll on the next frame, so the first reading can still be the one from halfway down).
    await expect.poll(placement).toBe("clear");
    await screenshot(pm.page, "chat-13-scroll-top-sideways-phone");
    expect(pm.consoleErrors).toEqual([]);
    await pm.context.close();
  });
});
