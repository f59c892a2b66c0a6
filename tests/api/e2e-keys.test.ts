import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { directChatroomId } from "../../worker/contract/chat";
import { E2E_MAX_DEVICES } from "../../worker/contract/e2e";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { block } from "./social-support";

/**
 * End-to-end devices (README Decisions "Verifiable end-to-end keys"; SECURITY.md "End-to-end encrypted private
 * messages"): owner-only device routes, the public-keys answer, the bound, and who may not see what.
 */

const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const spki = async (key: CryptoKey) => b64((await crypto.subtle.exportKey("spki", key)) as ArrayBuffer);
const RSA = { name: "RSA-OAEP", publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" } as const;

/** A browser's two key pairs, as chat-crypto.ts makes them. */
async function deviceKeys(modulusLength = 2048) {
  const encryption = (await crypto.subtle.generateKey({ ...RSA, modulusLength }, true, ["encrypt", "decrypt"])) as CryptoKeyPair;
  const signing = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return { encryption, signing, body: { name: "Chrome on Android", encryptionKey: await spki(encryption.publicKey), signingKey: await spki(signing.publicKey) } };
}
let shared: Awaited<ReturnType<typeof deviceKeys>> | undefined;
const someKeys = async () => {
  shared ??= await deviceKeys();
  return shared.body;
};

const newDeviceId = () => `dev${crypto.randomUUID().replace(/-/g, "")}`.slice(0, 22);
const register = (as: Member, deviceId: string, body: unknown) => call("PUT", `/private/sns/e2e-devices/${deviceId}`, { as, body });
const listOwn = async (as: Member) => expectOk(await call("GET", "/private/sns/e2e-devices", { as })) as { deviceId: string; name: string; encryptionKey: string; signingKey: string; dateAdd: string }[];
const publicKeys = (as: Member | null, memberNo: string) => call("GET", `/private/sns/public-keys/${memberNo}`, { as });

describe("e2e devices: what works", () => {
  it("registers a device, lists it for its owner with its name, and publishes only its keys to others", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const keys = await someKeys();
    const deviceId = newDeviceId();
    const created = expectOk(await register(a, deviceId, keys));
    expect(created).toMatchObject({ deviceId, name: "Chrome on Android", encryptionKey: keys.encryptionKey, signingKey: keys.signingKey });
    expect(created.dateAdd).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(await listOwn(a)).toEqual([created]);
    expect(await listOwn(b)).toEqual([]);

    // §7 keeps `publicKey`; devices carry keys and date, never the owner's device name.
    const seen = publicKeys(b, a.memberNo);
    const answer = expectOk(await seen);
    expect(answer).toEqual({ memberNo: a.memberNo, publicKey: null, devices: [{ deviceId, encryptionKey: keys.encryptionKey, signingKey: keys.signingKey, dateAdd: created.dateAdd }] });
    expect(JSON.stringify(answer)).not.toContain("Chrome on Android");
    expect(expectOk(await publicKeys(a, b.memberNo)).devices).toEqual([]);
  });

  it("re-registers the same device id in place (new keys, same date) and removes only the owner's device", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const deviceId = newDeviceId();
    const first = expectOk(await register(a, deviceId, await someKeys()));
    const fresh = (await deviceKeys()).body;
    const again = expectOk(await register(a, deviceId, { ...fresh, name: "My phone" }));
    expect(again).toMatchObject({ deviceId, name: "My phone", signingKey: fresh.signingKey, dateAdd: first.dateAdd });
    expect(await listOwn(a)).toHaveLength(1);

    // The same device id registered by b is b's own row; removing it on a's side is not found for b.
    expectOk(await register(b, deviceId, await someKeys()));
    expectFailure(await call("DELETE", `/private/sns/e2e-devices/${newDeviceId()}`, { as: b }), 404, "404000");
    expectOk(await call("DELETE", `/private/sns/e2e-devices/${deviceId}`, { as: b }));
    expect(await listOwn(a)).toHaveLength(1);
    expect(await listOwn(b)).toHaveLength(0);
    expectOk(await call("DELETE", `/private/sns/e2e-devices/${deviceId}`, { as: a }));
    expect(expectOk(await publicKeys(b, a.memberNo)).devices).toEqual([]);
    expectFailure(await call("DELETE", `/private/sns/e2e-devices/${deviceId}`, { as: a }), 404);
  });

  it("stores a signed message wrapped for every device as ciphertext only", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const room = directChatroomId(a.memberNo, b.memberNo);
    const [da, db] = [newDeviceId(), newDeviceId()];
    const payload = {
      type: "encrypted",
      alg: "RSA-OAEP-256+A256GCM",
      iv: "AAAAAAAAAAAAAAAA",
      data: "Y2lwaGVydGV4dA==",
      keys: { [a.memberNo]: "d3JhcA==", [b.memberNo]: "d3JhcA==" },
      deviceKeys: { [a.memberNo]: { [da]: "d3JhcA==" }, [b.memberNo]: { [db]: "d3JhcA==" } },
      senderDevice: da,
      sig: b64(new Uint8Array(64).buffer),
    };
    const sent = expectOk(await call("POST", `/private/sns/chatrooms/${room}/messages/${a.memberId}`, { as: a, body: { requestId: `rq${newDeviceId()}`, message: "", payload } }));
    expect(sent.payload).toEqual(payload);
    const row = await env.DB.prepare("select message, payload from chat_messages where id_chatroom_message = ?").bind(sent.idChatroomMessage).first<{ message: string; payload: string }>();
    expect(row).toEqual({ message: "", payload: JSON.stringify(payload) });

    // A third member's wrapped keys, or more devices than the bound, are refused.
    const post = (p: unknown) => call("POST", `/private/sns/chatrooms/${room}/messages/${a.memberId}`, { as: a, body: { requestId: `rq${newDeviceId()}`, message: "", payload: p } });
    expectFailure(await post({ ...payload, deviceKeys: { ...payload.deviceKeys, "999999": { [da]: "d3JhcA==" } } }), 400);
    const many = Object.fromEntries(Array.from({ length: E2E_MAX_DEVICES + 1 }, () => [newDeviceId(), "d3JhcA=="]));
    expectFailure(await post({ ...payload, deviceKeys: { [b.memberNo]: many } }), 400);
    expectFailure(await post({ ...payload, senderDevice: "short" }), 400);
  });
});

describe("e2e devices: what is refused", () => {
  it(`keeps at most ${E2E_MAX_DEVICES} devices per member; an existing one still re-registers`, async () => {
    const a = await signUp();
    const keys = await someKeys();
    const ids = Array.from({ length: E2E_MAX_DEVICES }, newDeviceId);
    for (const id of ids) expectOk(await register(a, id, keys));
    const refused = expectFailure(await register(a, newDeviceId(), keys), 409, "409731");
    expect(refused.returnMessage).toMatch(/Too many devices/);
    expect(await listOwn(a)).toHaveLength(E2E_MAX_DEVICES);
    expectOk(await register(a, ids[3]!, { ...keys, name: "Renamed" }));
    expectOk(await call("DELETE", `/private/sns/e2e-devices/${ids[0]}`, { as: a }));
    expectOk(await register(a, newDeviceId(), keys));
    expect(await listOwn(a)).toHaveLength(E2E_MAX_DEVICES);
  });

  it("refuses keys that do not import as RSA-OAEP-2048+ and ECDSA P-256, bad ids and unknown fields (400, nothing stored)", async () => {
    const a = await signUp();
    const keys = await someKeys();
    const weak = (await deviceKeys(1024)).body.encryptionKey;
    const p384 = await spki(((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"])) as CryptoKeyPair).publicKey);
    const cases: unknown[] = [
      { ...keys, encryptionKey: "bm90IGEga2V5" },
      { ...keys, encryptionKey: weak },
      { ...keys, encryptionKey: keys.signingKey },
      { ...keys, signingKey: p384 },
      { ...keys, signingKey: keys.encryptionKey },
      { ...keys, name: "   " },
      { ...keys, name: "x".repeat(61) },
      { ...keys, extra: true },
      { name: "x" },
    ];
    for (const body of cases) expectFailure(await register(a, newDeviceId(), body), 400);
    expectFailure(await register(a, "short", keys), 400);
    expectFailure(await register(a, "has space in it 0000", keys), 400);
    expect(await listOwn(a)).toEqual([]);
  });
});

describe("e2e devices: who may not", () => {
  it("answers a visitor 401 on every device route and on public keys", async () => {
    const a = await signUp();
    expectFailure(await call("GET", "/private/sns/e2e-devices", { as: null }), 401);
    expectFailure(await register(null as unknown as Member, newDeviceId(), await someKeys()), 401);
    expectFailure(await call("DELETE", `/private/sns/e2e-devices/${newDeviceId()}`, { as: null }), 401);
    expectFailure(await publicKeys(null, a.memberNo), 401);
  });

  it("hides a member's keys from another tenant and from a member blocked either way (not found)", async () => {
    const [a, b, c, foreign] = [await signUp(), await signUp(), await signUp(), await signUp("ABC")];
    for (const m of [a, b, c, foreign]) expectOk(await register(m, newDeviceId(), await someKeys()));
    expectFailure(await publicKeys(foreign, a.memberNo), 404);
    expectFailure(await publicKeys(a, foreign.memberNo), 404);
    await block(a, b);
    expectFailure(await publicKeys(b, a.memberNo), 404);
    expectFailure(await publicKeys(a, b.memberNo), 404);
    expect(expectOk(await publicKeys(c, a.memberNo)).devices).toHaveLength(1);
    // The owner always reads their own.
    expect(expectOk(await publicKeys(a, a.memberNo)).devices).toHaveLength(1);
    expectFailure(await publicKeys(a, "not-a-number"), 400);
  });

  it("removes the devices with the account", async () => {
    const a = await signUp();
    expectOk(await register(a, newDeviceId(), await someKeys()));
    expectOk(await call("DELETE", `/private/core/members/${a.memberId}`, { as: a, body: { password: a.password } }));
    const left = await env.DB.prepare("select count(*) as n from e2e_devices where member_id = ?").bind(a.memberId).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});
