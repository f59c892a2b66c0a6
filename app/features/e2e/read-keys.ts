import { readSession } from "../../lib/session-keys";
import type { encryptText } from "./chat-crypto";
import { devicesOf, ensureDeviceRegistered } from "./device-keys";
import { verifiedKey } from "./e2e-names";
import { isFlagged, rememberSeen, seenKey } from "./key-watch";
import { keySetId, safetyNumber, type DeviceKeys } from "./safety-number";

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
