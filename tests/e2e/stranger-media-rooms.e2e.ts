import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { apiSignUpPoster, apiUpload, avatarJpeg, gotoHydrated, hasHorizontalOverflow, launchBrowser, loginThroughPage, newPage, screenshot } from "./support/browser";
import { apiCall, localSql, type Account } from "./support/local-api";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** An image uploaded through the media pipeline (so it has its blurred rendition) and posted in the public room. */
async function postRoomImage(member: Account) {
  const uploaded = (await apiUpload(member, avatarJpeg(220, 160), "photo")) as { info: { url: string; width: number; height: number } };
  const sent = await apiCall(member, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${member.memberId}`, {
    requestId: `smr-${Date.now().toString(36)}`,
    message: "",
    payload: { type: "img", src: uploaded.info.url },
  });
  expect(sent.body.returnCode).toBe("000000");
  return { id: sent.body.info.idChatroomMessage as number, url: uploaded.info.url };
}

describe("a stranger's image in the public room stays blurred (phone)", () => {
  it("shows the rendition with Show, and Show brings this one image's original", async () => {
    const stranger = await apiSignUpPoster();
    const nickname = `Roomer ${stranger.memberNo}`;
    expect((await apiCall(stranger, "PATCH", `/core/profiles/${stranger.memberId}`, { nickname })).body.returnCode).toBe("000000");
    // Images in the shared rooms need kycStatus above 0 (§5).
    localSql(`update profiles set kyc_status = 1 where member_id = '${stranger.memberId}'`);
    const posted = await postRoomImage(stranger);
    const me = await apiSignUpPoster();
    expect((await apiCall(me, "PUT", `/core/stranger-media/${me.memberId}`, { strangerMedia: "notFollowed" })).body.returnCode).toBe("000000");

    const { page, context } = await newPage(browser);
    await loginThroughPage(page, me.email, me.password);
    await gotoHydrated(page, `/smp/public-chat/${PUBLIC_CHATROOM_ID}`);
    const item = page.locator(`li[data-message-id="${posted.id}"]`);
    await item.waitFor();
    await item.scrollIntoViewIfNeeded();
    const image = item.locator("img.chat-image");
    expect(await image.getAttribute("src")).toContain("/blur/");
    // The original's address is nowhere in what the page got.
    expect(await page.content()).not.toContain(posted.url);
    await screenshot(page, "stranger-media-rooms-01-blurred-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);

    await item.getByRole("button", { name: `Show ${nickname}'s image` }).click();
    await expect.poll(() => image.getAttribute("src")).toBe(posted.url);
    await screenshot(page, "stranger-media-rooms-02-revealed-phone");
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await context.close();
  });
});
