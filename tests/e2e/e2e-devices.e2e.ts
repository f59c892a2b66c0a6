import { webcrypto } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { apiSignUpPoster, gotoHydrated, launchBrowser, loginThroughPage, newPage, screenshot, see } from "./support/browser";
import { apiCall, localRows, localSql } from "./support/local-api";

/**
 * A member's second device and signature hardening (README Decisions "Linking a second device"; SECURITY.md
 * "End-to-end encrypted private messages"), at phone size: a second browser of the same member cannot read history
 * and says why; the first browser is told a device was added, links it with the code the second one shows, and the
 * second then reads history (a one-to-one message and a private thread reply); a device the server lists for the contact only while a message arrives raises "Their
 * keys changed" (and it stays); a forged and a replayed row inserted in D1 show "Could not verify who sent this".
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const subtle = webcrypto.subtle;
const b64 = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString("base64");
const sorted = (record: Record<string, string>) => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const randomId = () => b64(webcrypto.getRandomValues(new Uint8Array(16))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** A payload signed (v2) by a device the test made, as a server that listed a device of its own would send one. */
async function payloadFrom(device: { deviceId: string; signing: CryptoKeyPair }, room: string, senderNo: string, text: string, wrapFor: Record<string, Record<string, string>>) {
  const aes = await subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt"]);
  const iv = webcrypto.getRandomValues(new Uint8Array(12));
  const data = await subtle.encrypt({ name: "AES-GCM", iv }, aes, new TextEncoder().encode(text));
  const deviceKeys: Record<string, Record<string, string>> = {};
  const keys: Record<string, string> = {};
  for (const [memberNo, devices] of Object.entries(wrapFor)) {
    deviceKeys[memberNo] = {};
    for (const [deviceId, spki] of Object.entries(devices)) {
      const key = await subtle.importKey("spki", Buffer.from(spki, "base64"), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["wrapKey"]);
      deviceKeys[memberNo][deviceId] = b64(await subtle.wrapKey("raw", aes, key, { name: "RSA-OAEP" }));
    }
    keys[memberNo] = Object.values(deviceKeys[memberNo])[0]!;
  }
  const unsigned = { type: "encrypted", alg: "RSA-OAEP-256+A256GCM", iv: b64(iv), data: b64(data), keys, deviceKeys, senderDevice: device.deviceId, v: 2, msgId: randomId(), sentAt: Date.now() };
  const devices = Object.entries(deviceKeys)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([memberNo, wrapped]) => [memberNo, sorted(wrapped)]);
  // The canonical array of chat-crypto.ts signedBytes (v2).
  const canonical = ["velvet-e2e-sig-v2", room, senderNo, device.deviceId, unsigned.msgId, String(unsigned.sentAt), unsigned.alg, unsigned.iv, unsigned.data, sorted(keys), devices];
  const sig = await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, device.signing.privateKey, new TextEncoder().encode(JSON.stringify(canonical)));
  return { ...unsigned, sig: b64(sig) };
}

describe("e2e devices journey", () => {
  it("links a second browser so it reads history, flags a contact device listed only for a moment, refuses a forged and a replayed message", async () => {
    const [a, b] = [await apiSignUpPoster(), await apiSignUpPoster()];
    expect((await apiCall(b, "POST", `/core/follows/${a.memberNo}`)).body.returnCode).toBe("000000");
    expect((await apiCall(a, "POST", `/core/follows/${b.memberNo}`)).body.returnCode).toBe("000000");
    const room = `/smp/chatroom/${a.memberNo}/${b.memberNo}`;
    const roomId = directChatroomId(a.memberNo, b.memberNo);
    const first = await newPage(browser);
    const pb = await newPage(browser);
    await loginThroughPage(first.page, a.email, a.password);
    await loginThroughPage(pb.page, b.email, b.password);
    await gotoHydrated(pb.page, room);
    await gotoHydrated(first.page, room);
    for (const m of [a, b]) await expect.poll(async () => (await apiCall(m, "GET", "/sns/e2e-devices")).body.info.length, { timeout: 20_000 }).toBe(1);
    await gotoHydrated(first.page, room);
    await first.page.locator(".e2e-safety").waitFor();

    const secret = `the old secret ${Date.now()}`;
    const box = first.page.getByLabel("Message", { exact: true });
    await box.fill(secret);
    await box.press("Enter");
    const bList = pb.page.getByRole("list", { name: "Messages" });
    await see(first.page.getByRole("list", { name: "Messages" }), secret);
    await see(bList, secret, 15_000);

    // B's private thread reply under a note of A's in the public room: encrypted for A's one device so far.
    const posted = (await apiCall(a, "POST", `/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${a.memberId}`, { requestId: `note-${Date.now()}`, message: "A note for a private reply" })).body;
    expect(posted.returnCode).toBe("000000");
    const noteId = posted.info.idChatroomMessage as number;
    const notePath = `/smp/notes/${noteId}`;
    const threadSecret = `the old thread secret ${Date.now()}`;
    await gotoHydrated(pb.page, notePath);
    await pb.page.getByRole("switch", { name: "Private reply" }).click();
    await pb.page.getByLabel("Your reply").fill(threadSecret);
    await pb.page.getByRole("button", { name: "Reply", exact: true }).click();
    await see(pb.page.getByRole("list", { name: "Replies" }), threadSecret, 15_000);
    expect(localRows(`select message from chat_threads where id_chatroom_message = ${noteId}`)).toEqual([{ message: "" }]);
    await gotoHydrated(pb.page, room);

    // A second browser of the same member: its own device, and history it cannot read yet, saying why.
    const second = await newPage(browser);
    await loginThroughPage(second.page, a.email, a.password);
    await gotoHydrated(second.page, room);
    await expect.poll(async () => (await apiCall(a, "GET", "/sns/e2e-devices")).body.info.length, { timeout: 20_000 }).toBe(2);
    const secondList = second.page.getByRole("list", { name: "Messages" });
    await see(secondList, "Sent before this device was added. Link it from a device you already use to read older messages.", 15_000);
    expect(await secondList.innerText()).not.toContain(secret);
    await screenshot(second.page, "e2e-devices-01-not-linked-phone");

    // The first browser is told a device was added to the account.
    await gotoHydrated(first.page, room);
    const added = first.page.locator(".e2e-new-device");
    await see(added, /A new device was added to your account: Chrome · Linux, /, 15_000);
    await added.getByRole("button", { name: "Remove Chrome · Linux" }).waitFor();
    await screenshot(first.page, "e2e-devices-02-new-device-notice-phone");

    // The second browser shows a one-time code (reached from the message's link to Settings).
    await secondList.getByRole("link", { name: "Link this device" }).first().click();
    await second.page.waitForURL(/\/smp\/settings/);
    await second.page.getByRole("button", { name: "Show a linking code for this device" }).click();
    const code = (await second.page.locator(".e2e-link-code").innerText()).trim();
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    await screenshot(second.page, "e2e-devices-03-linking-code-phone");
    // The server holds the tag, never the code.
    const stored = localRows(`select link_tag from e2e_devices where member_id = '${a.memberId}' and link_tag is not null`);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code.replace(/-/g, ""));

    // The first browser links it with the code: the older message key is re-wrapped for the second device.
    await gotoHydrated(first.page, "/smp/settings");
    const devices = first.page.getByRole("region", { name: "Devices with message keys" });
    await see(devices, /A new device was added to your account/);
    await devices.getByLabel("Link a new device: its linking code").fill(code.toLowerCase());
    await devices.getByRole("button", { name: "Link device" }).click();
    await see(devices, "Linked Chrome · Linux: 2 earlier messages can now be read there.", 20_000);
    await expect.poll(() => devices.locator(".e2e-new-device").count()).toBe(0);
    await screenshot(first.page, "e2e-devices-04-linked-phone");
    const rewrapped = localRows(`select wrapped_key from e2e_link_keys where member_id = '${a.memberId}'`);
    expect(rewrapped).toHaveLength(1);
    expect(localRows(`select wrapped_key from e2e_link_thread_keys where member_id = '${a.memberId}'`)).toHaveLength(1);
    expect(localRows(`select link_tag from e2e_devices where member_id = '${a.memberId}' and link_tag is not null`)).toHaveLength(0);

    // The second browser now reads history; a new message from the contact reaches both devices.
    await gotoHydrated(second.page, room);
    await see(secondList, secret, 15_000);
    // ...and the private thread reply under A's note, written before it was added.
    await gotoHydrated(second.page, notePath);
    await see(second.page.getByRole("list", { name: "Replies" }), threadSecret, 15_000);
    await gotoHydrated(second.page, room);
    const later = `after linking ${Date.now()}`;
    const bBox = pb.page.getByLabel("Message", { exact: true });
    await bBox.fill(later);
    await bBox.press("Enter");
    await see(secondList, later, 15_000);
    await screenshot(second.page, "e2e-devices-05-history-readable-phone");

    // A forged row (wrong signature) and a replayed row (the same signed message again) straight into D1.
    const [original] = localRows(`select id_chatroom_message as id from chat_messages where chatroom_id = '${roomId}' order by id_chatroom_message limit 1`);
    const now = Date.now();
    const copy = (requestId: string, payload: string) =>
      localSql(
        `insert into chat_messages (project_code, chatroom_id, member_id, member_no, request_id, message, payload, is_private, to_member_id, to_member_no, date_add, date_udp)
         select project_code, chatroom_id, member_id, member_no, '${requestId}', message, ${payload}, is_private, to_member_id, to_member_no, ${now}, ${now} from chat_messages where id_chatroom_message = ${original!.id}`,
      );
    copy(`replayed-${now}`, "payload");
    copy(`forged-${now}`, `json_set(payload, '$.sig', '${Buffer.alloc(64, 7).toString("base64")}')`);
    await gotoHydrated(pb.page, room);
    await see(bList, later, 15_000);
    await expect.poll(() => bList.locator("li", { hasText: "Could not verify who sent this" }).count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => bList.locator("li", { hasText: secret }).count()).toBe(1);
    await screenshot(pb.page, "e2e-devices-06-forged-and-replayed-phone");

    // A verifies B, then the server lists a device of its own for B just while a message signed by it arrives.
    await gotoHydrated(first.page, room);
    await first.page.locator(".e2e-safety summary").click();
    await first.page.getByRole("switch", { name: "Mark as verified" }).click();
    await see(first.page.locator(".e2e-safety summary"), "Verified");
    const rogue = {
      deviceId: randomId(),
      signing: (await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair,
      encryption: (await subtle.generateKey({ name: "RSA-OAEP", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["encrypt", "decrypt"])) as CryptoKeyPair,
    };
    const spki = async (key: CryptoKey) => b64(await subtle.exportKey("spki", key));
    localSql(
      `insert into e2e_devices (project_code, member_id, device_id, name, encryption_key, signing_key, created_at)
       values ('SMP', '${b.memberId}', '${rogue.deviceId}', 'rogue', '${await spki(rogue.encryption.publicKey)}', '${await spki(rogue.signing.publicKey)}', ${Date.now()})`,
    );
    const aDevices = Object.fromEntries(localRows(`select device_id, encryption_key from e2e_devices where member_id = '${a.memberId}'`).map((r) => [String(r.device_id), String(r.encryption_key)]));
    const swapped = `signed by a device listed for a moment ${Date.now()}`;
    const payload = await payloadFrom(rogue, roomId, b.memberNo, swapped, { [a.memberNo]: aDevices, [b.memberNo]: { [rogue.deviceId]: await spki(rogue.encryption.publicKey) } });
    expect((await apiCall(b, "POST", `/sns/chatrooms/${roomId}/messages/${b.memberId}`, { requestId: `rogue-${Date.now()}`, message: "", payload })).body.returnCode).toBe("000000");
    const changed = first.page.locator(".e2e-notice-warn", { hasText: "Their keys changed — compare the safety number again" });
    await see(changed, "Their keys changed", 15_000);
    // Gone from the listing again: the notice stays, and sending asks first (A had verified B).
    localSql(`delete from e2e_devices where device_id = '${rogue.deviceId}'`);
    await gotoHydrated(first.page, room);
    await see(changed, "Their keys changed", 15_000);
    await box.fill("is this still you?");
    await box.press("Enter");
    const ask = first.page.getByRole("alertdialog");
    await see(ask, "Their keys changed since you verified them");
    await screenshot(first.page, "e2e-devices-07-keys-changed-phone");
    await ask.getByRole("button", { name: "Cancel" }).click();

    expect([...first.consoleErrors, ...second.consoleErrors, ...pb.consoleErrors]).toEqual([]);
    for (const p of [first, second, pb]) await p.context.close();
  }, 480_000); // three browsers, several reloads and D1 writes through wrangler (about 265 s on a loaded machine)
});
