import { webcrypto } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directChatroomId } from "../../worker/contract/chat";
import { apiSignUpPoster, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localRows, localSql } from "./support/local-api";

/**
 * Verifiable end-to-end keys (README Decisions "Verifiable end-to-end keys"; SECURITY.md "End-to-end encrypted private
 * messages"): two members at phone size exchange a signed, encrypted message and read the same safety number; D1
 * holds no plaintext; a key swapped in D1 is noticed; a forged signature is not shown; a recipient without keys
 * makes the sender choose.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});


const safetyDigits = async (page: Page) => {
  await page.locator(".e2e-safety summary").click();
  const text = await page.locator(".e2e-safety-number").innerText();
  return text.replace(/\s+/g, "");
};

describe("e2e keys journey", () => {
  it("exchanges a signed encrypted message, compares safety numbers, notices a swapped key, refuses a forgery, sends nothing without the end-to-end code and asks before plaintext", async () => {
    const [a, b, c] = [await apiSignUpPoster(), await apiSignUpPoster(), await apiSignUpPoster()];
    // Followed members' messages arrive directly (no request tray in the way of this journey).
    expect((await apiCall(b, "POST", `/core/follows/${a.memberNo}`)).body.returnCode).toBe("000000");
    expect((await apiCall(a, "POST", `/core/follows/${b.memberNo}`)).body.returnCode).toBe("000000");
    const pa = await newPage(browser);
    const pb = await newPage(browser);
    await loginThroughPage(pa.page, a.email, a.password);
    await loginThroughPage(pb.page, b.email, b.password);
    const room = `/smp/chatroom/${a.memberNo}/${b.memberNo}`;

    // Each browser registers its own device (two public keys) when it opens the conversation.
    await gotoHydrated(pb.page, room);
    await gotoHydrated(pa.page, room);
    for (const m of [a, b]) await expect.poll(async () => (await apiCall(m, "GET", "/sns/e2e-devices")).body.info.length, { timeout: 20_000 }).toBe(1);
    const [aDevice] = (await apiCall(a, "GET", "/sns/e2e-devices")).body.info;
    await gotoHydrated(pa.page, room);
    await pa.page.locator(".e2e-safety").waitFor();

    const secret = `meet at the usual place ${Date.now()}`;
    const box = pa.page.getByLabel("Message", { exact: true });
    await box.fill(secret);
    await box.press("Enter");
    const aList = pa.page.getByRole("list", { name: "Messages" });
    const bList = pb.page.getByRole("list", { name: "Messages" });
    await see(aList, secret);
    await see(bList, secret, 15_000);

    // Both read the same 12 groups of 5 digits.
    await gotoHydrated(pb.page, room);
    await see(bList, secret, 15_000);
    const [digitsA, digitsB] = [await safetyDigits(pa.page), await safetyDigits(pb.page)];
    expect(digitsA).toMatch(/^\d{60}$/);
    expect(digitsB).toBe(digitsA);
    await screenshot(pb.page, "e2e-keys-01-safety-number-phone");

    // D1 holds ciphertext, wrapped keys for both members' devices and a signature: never the text.
    const rows = localRows(`select message, payload from chat_messages where chatroom_id = '${directChatroomId(a.memberNo, b.memberNo)}'`);
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.message)).toBe("");
    expect(String(rows[0]!.payload)).not.toContain(secret);
    const stored = JSON.parse(String(rows[0]!.payload));
    expect(stored).toMatchObject({ type: "encrypted", senderDevice: aDevice.deviceId });
    expect(Object.keys(stored.deviceKeys).sort()).toEqual([a.memberNo, b.memberNo].sort());
    expect(stored.sig).toMatch(/^[A-Za-z0-9+/=]{60,}$/);

    // A marks the conversation verified; then B's signing key is swapped straight in D1 (a hostile server).
    await pa.page.getByRole("switch", { name: "Mark as verified" }).click();
    await see(pa.page.locator(".e2e-safety summary"), "Verified");
    const forgedKey = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const forgedSpki = Buffer.from(await webcrypto.subtle.exportKey("spki", forgedKey.publicKey)).toString("base64");
    localSql(`update e2e_devices set signing_key = '${forgedSpki}' where member_id = '${b.memberId}'`);
    await gotoHydrated(pa.page, room);
    await see(pa.page.getByRole("alert"), "Their keys changed — compare the safety number again", 15_000);
    await box.fill("are you still you?");
    await box.press("Enter");
    const warn = pa.page.getByRole("alertdialog");
    await see(warn, "Their keys changed since you verified them");
    await screenshot(pa.page, "e2e-keys-02-keys-changed-phone");
    await warn.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => box.inputValue()).toBe("are you still you?");
    await box.fill("");

    // A message whose signature does not verify (sent straight to the API with A's device id) is not shown.
    const forged = { ...stored, data: Buffer.from("forged ciphertext bytes").toString("base64"), sig: Buffer.alloc(64, 7).toString("base64") };
    const sent = await apiCall(a, "POST", `/sns/chatrooms/${directChatroomId(a.memberNo, b.memberNo)}/messages/${a.memberId}`, { requestId: `forged-${Date.now()}`, message: "", payload: forged });
    expect(sent.body.returnCode).toBe("000000");
    await see(bList, "Could not verify who sent this", 15_000);
    await screenshot(pb.page, "e2e-keys-03-unverified-phone");

    // The connection dropped before the end-to-end code came: nothing is sent, the text stays and A reads why.
    await pa.page.route("**/assets/e2e-code-*.js", (route) => route.abort());
    await gotoHydrated(pa.page, room);
    const unsent = `kept while offline ${Date.now()}`;
    await box.fill(unsent);
    await box.press("Enter");
    await see(pa.page.locator("body"), "Network error: check your connection and try again");
    await expect.poll(() => box.inputValue()).toBe(unsent);
    expect(localRows(`select id_chatroom_message from chat_messages where message like '%kept while offline%' or payload like '%kept while offline%'`)).toEqual([]);
    await pa.page.unroute("**/assets/e2e-code-*.js");

    // C has never opened the app: no device keys, so A chooses before anything goes unencrypted.
    await gotoHydrated(pa.page, `/smp/chatroom/${a.memberNo}/${c.memberNo}`);
    const plain = `plain hello ${Date.now()}`;
    const cBox = pa.page.getByLabel("Message", { exact: true });
    await cBox.fill(plain);
    await cBox.press("Enter");
    const ask = pa.page.getByRole("alertdialog");
    await see(ask, "This message will not be end-to-end encrypted");
    await screenshot(pa.page, "e2e-keys-04-not-encrypted-choice-phone");
    await ask.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => cBox.inputValue()).toBe(plain);
    await cBox.press("Enter");
    await pa.page.getByRole("alertdialog").getByRole("button", { name: "Send anyway" }).click();
    const sentPlain = pa.page.getByRole("list", { name: "Messages" }).locator("li", { hasText: plain });
    await see(sentPlain, "Not end-to-end encrypted", 15_000);
    await screenshot(pa.page, "e2e-keys-05-not-encrypted-mark-phone");

    // Settings lists A's device with remove.
    await gotoHydrated(pa.page, "/smp/settings");
    const devices = pa.page.getByRole("region", { name: "Devices with message keys" });
    await see(devices, "This device");
    await devices.getByRole("button", { name: /^Remove / }).waitFor();
    await screenshot(pa.page, "e2e-keys-06-settings-devices-phone");

    expect([...pa.consoleErrors, ...pb.consoleErrors]).toEqual([]);
    await pa.context.close();
    await pb.context.close();
  }, 240_000); // two members, several reloads and D1 reads through wrangler: longer than one default journey
});
