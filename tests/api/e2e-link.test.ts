import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { E2E_LINK_PAGE, E2E_MAX_LINKED_KEYS } from "../../worker/contract/e2e-link";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";

/**
 * Linking a second end-to-end device (README Decisions "Linking a second device"; SECURITY.md "End-to-end encrypted
 * private messages"): link requests, the keys a device holds and the keys re-wrapped for another of the owner's
 * devices are the owner's alone; another member, another tenant and a visitor get nothing; bounds are 4xx.
 */
const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const spki = async (key: CryptoKey) => b64((await crypto.subtle.exportKey("spki", key)) as ArrayBuffer);
let keysBody: { name: string; encryptionKey: string; signingKey: string } | undefined;
async function deviceBody() {
  if (keysBody) return keysBody;
  const encryption = (await crypto.subtle.generateKey({ name: "RSA-OAEP", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["encrypt", "decrypt"])) as CryptoKeyPair;
  const signing = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  keysBody = { name: "Firefox on Linux", encryptionKey: await spki(encryption.publicKey), signingKey: await spki(signing.publicKey) };
  return keysBody;
}
const newDeviceId = () => `dev${crypto.randomUUID().replace(/-/g, "")}`.slice(0, 22);
async function device(as: Member) {
  const deviceId = newDeviceId();
  expectOk(await call("PUT", `/private/sns/e2e-devices/${deviceId}`, { as, body: await deviceBody() }));
  return deviceId;
}
const TAG = `${"Qk".repeat(21)}A=`;

/** The signed-payload-v2 envelope chat-crypto.ts sends; the server never reads inside it, so fixed bytes stand in. */
function envelopeOf(from: Member, deviceKeys: Record<string, Record<string, string>>) {
  return {
    type: "encrypted",
    alg: "RSA-OAEP-256+A256GCM",
    iv: "AAAAAAAAAAAAAAAA",
    data: "Y2lwaGVydGV4dA==",
    keys: { [from.memberNo]: "d3JhcA==" },
    deviceKeys,
    senderDevice: Object.keys(deviceKeys[from.memberNo] ?? {})[0] ?? newDeviceId(),
    sig: b64(new Uint8Array(64).buffer),
    v: 2,
    msgId: newDeviceId(),
    sentAt: Date.now(),
  };
}

/** A signed-payload-v2 message from `from` to `to` carrying wrapped keys for the given devices. */
async function send(from: Member, to: Member, deviceKeys: Record<string, Record<string, string>>) {
  const payload = envelopeOf(from, deviceKeys);
  const sent = expectOk(
    await call("POST", `/private/sns/chatrooms/${directChatroomId(from.memberNo, to.memberNo)}/messages/${from.memberId}`, { as: from, body: { requestId: `rq${newDeviceId()}`, message: "", payload } }),
  );
  // Signed payload v2 travels as sent: the random id and sending time are kept for the reader's checks.
  expect(sent.payload).toMatchObject({ v: 2, msgId: payload.msgId, sentAt: payload.sentAt });
  return sent.idChatroomMessage as number;
}

/** A member who may post in the public room (a qualified avatar, §4 posting rules). */
async function poster() {
  const m = await signUp();
  await env.DB.prepare("update profiles set avator = ?, qualify = 1, nickname = ? where member_id = ?").bind(`/media/SMP/${m.memberNo}/avatar/a.jpg`, `nick${m.memberNo}`, m.memberId).run();
  return m;
}

/** An encrypted private reply from `from` to `to` in the public room, with wrapped keys for the given devices. */
async function privateReply(from: Member, to: Member, deviceKeys: Record<string, Record<string, string>>) {
  const payload = { ...envelopeOf(from, deviceKeys), keys: { [from.memberNo]: "d3JhcA==", [to.memberNo]: "d3JhcA==" } };
  const sent = expectOk(
    await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${from.memberId}`, { as: from, body: { requestId: `rq${newDeviceId()}`, message: "", payload, isPrivate: true, toMemberNo: to.memberNo } }),
  );
  return sent.idChatroomMessage as number;
}

describe("e2e device linking: the owner's devices only", () => {
  it("keeps a link request for the owner, lists the keys a device holds and stores keys re-wrapped for another own device", async () => {
    const [a, b, c] = [await signUp(), await signUp(), await signUp()];
    const [oldDevice, newDevice, bDevice] = [await device(a), await device(a), await device(b)];
    const id = await send(a, b, { [a.memberNo]: { [oldDevice]: "b2xkLWtleQ==" }, [b.memberNo]: { [bDevice]: "Yi1rZXk=" } });
    const otherRoom = await send(b, c, { [b.memberNo]: { [bDevice]: "YmMta2V5" } });

    // The new device posts its tag; only its owner reads it back, with the keys the tag covers.
    const requested = expectOk(await call("PUT", `/private/sns/e2e-links/${newDevice}`, { as: a, body: { tag: TAG } }));
    expect(Date.parse(requested.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const pending = expectOk(await call("GET", "/private/sns/e2e-links", { as: a }));
    expect(pending).toEqual([expect.objectContaining({ deviceId: newDevice, tag: TAG, name: "Firefox on Linux", encryptionKey: (await deviceBody()).encryptionKey })]);
    expect(expectOk(await call("GET", "/private/sns/e2e-links", { as: b }))).toEqual([]);

    // The old device's keys: only what was wrapped for it in the owner's own rooms.
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${oldDevice}/message-keys`, { as: a }))).toEqual([{ idChatroomMessage: id, wrappedKey: "b2xkLWtleQ==" }]);
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${bDevice}/message-keys`, { as: b }))).toEqual([
      { idChatroomMessage: otherRoom, wrappedKey: "YmMta2V5" },
      { idChatroomMessage: id, wrappedKey: "Yi1rZXk=" },
    ]);

    // Re-wrapped for the new device: stored for a message of the owner's rooms, skipped for anyone else's.
    const stored = expectOk(await call("POST", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: a, body: { keys: [{ idChatroomMessage: id, wrappedKey: "bmV3LWtleQ==" }, { idChatroomMessage: otherRoom, wrappedKey: "c3RvbGVu" }] } }));
    expect(stored).toEqual({ stored: 1 });
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: a }))).toEqual([{ idChatroomMessage: id, wrappedKey: "bmV3LWtleQ==" }]);
    // A device linked earlier can pass them on in turn.
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${newDevice}/message-keys`, { as: a }))).toEqual([{ idChatroomMessage: id, wrappedKey: "bmV3LWtleQ==" }]);
    const row = await env.DB.prepare("select project_code as p, member_id as m from e2e_link_keys where device_id = ?").bind(newDevice).first();
    expect(row).toEqual({ p: "SMP", m: a.memberId });

    // The request is one-time: ended, it is no longer listed.
    expectOk(await call("DELETE", `/private/sns/e2e-links/${newDevice}`, { as: a }));
    expect(expectOk(await call("GET", "/private/sns/e2e-links", { as: a }))).toEqual([]);

    // Removing the device removes what was re-wrapped for it.
    expectOk(await call("DELETE", `/private/sns/e2e-devices/${newDevice}`, { as: a }));
    expect((await env.DB.prepare("select count(*) as n from e2e_link_keys where device_id = ?").bind(newDevice).first())?.n).toBe(0);
  });

  it("covers private replies in a shared room for their sender and recipient, and no one else", async () => {
    const [a, b, c] = [await poster(), await poster(), await poster()];
    const [aOld, aNew, bDevice, cDevice] = [await device(a), await device(a), await device(b), await device(c)];
    const reply = await privateReply(a, b, { [a.memberNo]: { [aOld]: "YS1vbGQ=" }, [b.memberNo]: { [bDevice]: "Yi1rZXk=" } });

    // Both members' devices list the reply's key as one they hold; a third member's device does not.
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${aOld}/message-keys`, { as: a }))).toEqual([{ idChatroomMessage: reply, wrappedKey: "YS1vbGQ=" }]);
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${bDevice}/message-keys`, { as: b }))).toEqual([{ idChatroomMessage: reply, wrappedKey: "Yi1rZXk=" }]);
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${cDevice}/message-keys`, { as: c }))).toEqual([]);

    // Re-wrapped for the sender's new device it is kept; a bystander cannot store a key for someone else's reply.
    expect(expectOk(await call("POST", `/private/sns/e2e-devices/${aNew}/linked-keys`, { as: a, body: { keys: [{ idChatroomMessage: reply, wrappedKey: "YS1uZXc=" }] } }))).toEqual({ stored: 1 });
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${aNew}/linked-keys`, { as: a }))).toEqual([{ idChatroomMessage: reply, wrappedKey: "YS1uZXc=" }]);
    expect(expectOk(await call("POST", `/private/sns/e2e-devices/${cDevice}/linked-keys`, { as: c, body: { keys: [{ idChatroomMessage: reply, wrappedKey: "c3RvbGVu" }] } }))).toEqual({ stored: 0 });
  });

  it("covers private thread replies for the replier and the note's author, and no one else", async () => {
    const [author, replier, other] = [await poster(), await poster(), await poster()];
    const [authorDevice, replierOld, replierNew, otherDevice] = [await device(author), await device(replier), await device(replier), await device(other)];
    const note = expectOk(
      await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { as: author, body: { requestId: `rq${newDeviceId()}`, message: "A note anyone may answer" } }),
    );
    const payload = { ...envelopeOf(replier, { [replier.memberNo]: { [replierOld]: "ci1vbGQ=" }, [author.memberNo]: { [authorDevice]: "YS1rZXk=" } }), keys: { [replier.memberNo]: "d3JhcA==", [author.memberNo]: "d3JhcA==" } };
    const thread = expectOk(
      await call("POST", `/private/sns/chatroom/messages/threads/${replier.memberId}`, { as: replier, body: { idChatroomMessage: note.idChatroomMessage, message: "", isPrivate: true, payload } }),
    ).idChatMessageThread as number;

    // The replier's and the author's devices hold the reply's key; a third member's device holds none.
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${replierOld}/thread-keys`, { as: replier }))).toEqual([{ idChatMessageThread: thread, wrappedKey: "ci1vbGQ=" }]);
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${authorDevice}/thread-keys`, { as: author }))).toEqual([{ idChatMessageThread: thread, wrappedKey: "YS1rZXk=" }]);
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${otherDevice}/thread-keys`, { as: other }))).toEqual([]);
    // A chat message's list does not mix them in.
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${replierOld}/message-keys`, { as: replier }))).toEqual([]);

    // Re-wrapped for the replier's new device it is kept and listed; a bystander cannot store one; another member
    // reading the replier's device is 404, a visitor 401.
    const body = { keys: [{ idChatMessageThread: thread, wrappedKey: "ci1uZXc=" }] };
    expect(expectOk(await call("POST", `/private/sns/e2e-devices/${replierNew}/linked-thread-keys`, { as: replier, body }))).toEqual({ stored: 1 });
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${replierNew}/linked-thread-keys`, { as: replier }))).toEqual([{ idChatMessageThread: thread, wrappedKey: "ci1uZXc=" }]);
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${replierNew}/thread-keys`, { as: replier }))).toEqual([{ idChatMessageThread: thread, wrappedKey: "ci1uZXc=" }]);
    expect(expectOk(await call("POST", `/private/sns/e2e-devices/${otherDevice}/linked-thread-keys`, { as: other, body }))).toEqual({ stored: 0 });
    expectFailure(await call("GET", `/private/sns/e2e-devices/${replierNew}/linked-thread-keys`, { as: author }), 404);
    expectFailure(await call("POST", `/private/sns/e2e-devices/${replierNew}/linked-thread-keys`, { as: author, body }), 404);
    expectFailure(await call("GET", `/private/sns/e2e-devices/${replierNew}/linked-thread-keys`), 401);
    // A first upload stays: a second one (a stolen session's) cannot replace it.
    expect(expectOk(await call("POST", `/private/sns/e2e-devices/${replierNew}/linked-thread-keys`, { as: replier, body: { keys: [{ idChatMessageThread: thread, wrappedKey: "c3BvaWw=" }] } }))).toEqual({ stored: 0 });
    expectFailure(await call("POST", `/private/sns/e2e-devices/${replierNew}/linked-thread-keys`, { as: replier, body: { keys: [{ idChatroomMessage: thread, wrappedKey: "eA==" }] } }), 400);

    // Removing the device removes what was re-wrapped for it.
    expectOk(await call("DELETE", `/private/sns/e2e-devices/${replierNew}`, { as: replier }));
    expect((await env.DB.prepare("select count(*) as n from e2e_link_thread_keys where device_id = ?").bind(replierNew).first())?.n).toBe(0);
  });

  it("answers another member, another tenant and a visitor with nothing of the owner's", async () => {
    const [a, b, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    const [oldDevice, newDevice] = [await device(a), await device(a)];
    const id = await send(a, b, { [a.memberNo]: { [oldDevice]: "b2xkLWtleQ==" } });
    expectOk(await call("PUT", `/private/sns/e2e-links/${newDevice}`, { as: a, body: { tag: TAG } }));
    expectOk(await call("POST", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: a, body: { keys: [{ idChatroomMessage: id, wrappedKey: "bmV3LWtleQ==" }] } }));

    for (const stranger of [b, foreign]) {
      // Someone else's device id is not among the caller's devices: 404, and nothing of the owner's in the answer.
      for (const reply of [
        await call("PUT", `/private/sns/e2e-links/${newDevice}`, { as: stranger, body: { tag: TAG } }),
        await call("DELETE", `/private/sns/e2e-links/${newDevice}`, { as: stranger }),
        await call("GET", `/private/sns/e2e-devices/${oldDevice}/message-keys`, { as: stranger }),
        await call("GET", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: stranger }),
        await call("POST", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: stranger, body: { keys: [{ idChatroomMessage: id, wrappedKey: "Zm9yZ2Vk" }] } }),
      ]) {
        expectFailure(reply, 404, "404000");
        expect(JSON.stringify(reply.body)).not.toMatch(/b2xkLWtleQ|bmV3LWtleQ/);
      }
      const listed = expectOk(await call("GET", "/private/sns/e2e-links", { as: stranger }));
      expect(listed).toEqual([]);
    }
    // The private API answers a visitor 401 before any route (no session, no device to look up).
    for (const reply of [
      await call("GET", "/private/sns/e2e-links", { as: null }),
      await call("PUT", `/private/sns/e2e-links/${newDevice}`, { as: null, body: { tag: TAG } }),
      await call("GET", `/private/sns/e2e-devices/${oldDevice}/message-keys`, { as: null }),
      await call("GET", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: null }),
      await call("POST", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: null, body: { keys: [{ idChatroomMessage: id, wrappedKey: "Zm9yZ2Vk" }] } }),
    ])
      expectFailure(reply, 401);

    // Nothing changed: the owner's request and key are as they were.
    expect(expectOk(await call("GET", "/private/sns/e2e-links", { as: a }))).toHaveLength(1);
    expect(expectOk(await call("GET", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: a }))).toEqual([{ idChatroomMessage: id, wrappedKey: "bmV3LWtleQ==" }]);
  });
});

describe("e2e device linking: bounds", () => {
  it("refuses malformed tags, ids and batches, forgets expired requests and caps the keys per device", async () => {
    const [a, b] = [await signUp(), await signUp()];
    const [oldDevice, newDevice] = [await device(a), await device(a)];
    expectFailure(await call("PUT", `/private/sns/e2e-links/${newDevice}`, { as: a, body: { tag: "short" } }), 400);
    expectFailure(await call("PUT", `/private/sns/e2e-links/${newDevice}`, { as: a, body: { tag: TAG, extra: 1 } }), 400);
    expectFailure(await call("PUT", "/private/sns/e2e-links/bad", { as: a, body: { tag: TAG } }), 400);
    expectFailure(await call("GET", `/private/sns/e2e-devices/${oldDevice}/message-keys?before=-1`, { as: a }), 400);
    const post = (keys: unknown) => call("POST", `/private/sns/e2e-devices/${newDevice}/linked-keys`, { as: a, body: { keys } });
    expectFailure(await post([]), 400);
    expectFailure(await post(Array.from({ length: E2E_LINK_PAGE + 1 }, (_, i) => ({ idChatroomMessage: i + 1, wrappedKey: "d3JhcA==" }))), 400);
    expectFailure(await post([{ idChatroomMessage: 1, wrappedKey: "not base64!" }]), 400);
    expectFailure(await post([{ idChatroomMessage: 1, wrappedKey: "A".repeat(2049) }]), 400);

    // An expired request is no longer listed (the member types the code within 10 minutes).
    expectOk(await call("PUT", `/private/sns/e2e-links/${newDevice}`, { as: a, body: { tag: TAG } }));
    await env.DB.prepare("update e2e_devices set link_expires_at = ?1 where device_id = ?2").bind(Date.now() - 1, newDevice).run();
    expect(expectOk(await call("GET", "/private/sns/e2e-links", { as: a }))).toEqual([]);

    // At the bound a further key is 409732 and stores nothing.
    const id = await send(a, b, { [a.memberNo]: { [oldDevice]: "b2xkLWtleQ==" } });
    const filler = Array.from({ length: E2E_MAX_LINKED_KEYS - 1 }, (_, i) => `('SMP', '${a.memberId}', '${newDevice}', ${1_000_000 + i}, 'd3JhcA==', 0)`);
    for (let i = 0; i < filler.length; i += 500)
      await env.DB.prepare(`insert into e2e_link_keys (project_code, member_id, device_id, id_chatroom_message, wrapped_key, created_at) values ${filler.slice(i, i + 500).join(",")}`).run();
    const id2 = await send(a, b, { [a.memberNo]: { [oldDevice]: "b2xkLWtleQ==" } });
    expectFailure(await post([{ idChatroomMessage: id, wrappedKey: "d3JhcA==" }, { idChatroomMessage: id2, wrappedKey: "d3JhcA==" }]), 409, "409732");
    expect(expectOk(await post([{ idChatroomMessage: id, wrappedKey: "d3JhcA==" }]))).toEqual({ stored: 1 });
    expectFailure(await post([{ idChatroomMessage: id2, wrappedKey: "d3JhcA==" }]), 409, "409732");
    expect((await env.DB.prepare("select count(*) as n from e2e_link_keys where device_id = ?").bind(newDevice).first())?.n).toBe(E2E_MAX_LINKED_KEYS);
  });
});
