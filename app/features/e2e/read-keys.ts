import { readSession } from "../../lib/session-keys";
import { encryptText } from "./chat-crypto";
import { devicesOf, ensureDeviceRegistered } from "./device-keys";
import { verifiedKey } from "./e2e-names";
import { isFlagged, rememberSeen, seenKey } from "./key-watch";
import type { Sealer } from "./encrypted-send";
import { keySetId, safetyNumber, type DeviceKeys } from "./safety-number";
import type { SendAnywayAsk } from "./send-anyway-dialog";

export type KeyState =
  | { status: "loading" }
  | { status: "noKeys" }
  | { status: "ready"; groups: string[]; peerSet: string; peerDevices: DeviceKeys[]; changed: boolean; verified: boolean; wasVerified: boolean };

/** A reading of the keys, with the recipients to encrypt for when they are ready. */
export type KeyReading = KeyState & { encryptFor?: Parameters<typeof encryptText>[3] };

/**
 * What the keys of a conversation with `peerNo` look like now, against what this browser remembers (first sight is
 * remembered, not flagged): the safety number, whether the set changed, whether the member verified it, and the
 * recipients to encrypt for. Used by one-to-one rooms (e2e-conversation.tsx) and private replies (encrypted-send.tsx).
 */
export async function readKeys(peerNo: string): Promise<KeyReading> {
  const session = readSession();
  if (!session) return { status: "noKeys" };
  // Our own listing is read after this browser's device is (re-)registered, so it counts in the number.
  const check = await ensureDeviceRegistered(session.memberId).catch(() => null);
  const [peer, own] = await Promise.all([devicesOf(peerNo, { fresh: true }), devicesOf(session.memberNo, { fresh: true })]);
  if (!check || !peer || !own || peer.devices.length === 0) return { status: "noKeys" };
  const groups = await safetyNumber({ memberNo: session.memberNo, devices: own.devices }, { memberNo: peerNo, devices: peer.devices });
  const peerSet = await keySetId(peer.devices);
  const seen = localStorage.getItem(seenKey(session.memberId, peerNo));
  if (!seen) await rememberSeen(session.memberId, peerNo, peer.devices, peerSet);
  // A message signed by a device outside the set last seen flags the set (key-watch.ts), even if it is gone now.
  const flagged = isFlagged(session.memberId, peerNo);
  const verifiedAs = localStorage.getItem(verifiedKey(session.memberId, peerNo));
  return {
    status: "ready",
    groups,
    peerSet,
    peerDevices: peer.devices,
    changed: Boolean(seen && seen !== peerSet) || flagged,
    verified: verifiedAs === groups.join("") && !flagged,
    wasVerified: Boolean(verifiedAs && (verifiedAs !== groups.join("") || flagged)),
    encryptFor: [own, peer],
  };
}

/**
 * How a private message to the contact read in `now` goes out (README Decisions "Verifiable end-to-end keys"):
 * sealed for every listed device of both members and signed by this one for `context`; "plain" only when the member
 * answered "Send anyway" to the missing-keys question; null when they cancelled, or when keys that changed after they
 * verified them were not confirmed. One-to-one rooms (e2e-conversation.tsx) and private replies (encrypted-send.tsx).
 */
export async function sealerFor(now: KeyReading | null, context: string, confirm: (kind: SendAnywayAsk["kind"]) => Promise<boolean>): Promise<Sealer | null> {
  const session = readSession();
  if (!session || !now || now.status !== "ready" || !now.encryptFor) return (await confirm("downgrade")) ? "plain" : null;
  if (now.wasVerified && !(await confirm("changed"))) return null;
  const { device } = await ensureDeviceRegistered(session.memberId);
  const members = now.encryptFor;
  return (text) => encryptText(text, context, { memberNo: session.memberNo, device }, members);
}
