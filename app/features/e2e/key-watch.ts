import { KEYS_EVENT } from "./e2e-names";
import { deviceFingerprint, keySetId, type DeviceKeys } from "./safety-number";

/**
 * What this browser remembers of a contact's keys (README Decisions "Verifiable end-to-end keys"; SECURITY.md): the
 * key-set id and the device fingerprints it last saw, and a flag set when a message arrived signed by a device
 * outside that set. The flag keeps the "Their keys changed" notice (and the confirm before sending to a verified
 * contact) up even if the server stops listing that device afterwards; only the member's "OK" clears it.
 */
export const seenKey = (memberId: string, peerNo: string) => `e2eSeen:${memberId}:${peerNo}`;
const seenDevicesKey = (memberId: string, peerNo: string) => `e2eSeenDevices:${memberId}:${peerNo}`;
const flagKey = (memberId: string, peerNo: string) => `e2eKeysFlag:${memberId}:${peerNo}`;

export const isFlagged = (memberId: string, peerNo: string) => localStorage.getItem(flagKey(memberId, peerNo)) === "1";

/** Remembers `devices` as the contact's key set this browser has seen (first sight, or after the member's "OK"). */
export async function rememberSeen(memberId: string, peerNo: string, devices: Pick<DeviceKeys, "encryptionKey" | "signingKey">[], setId?: string) {
  localStorage.setItem(seenKey(memberId, peerNo), setId ?? (await keySetId(devices)));
  localStorage.setItem(seenDevicesKey(memberId, peerNo), JSON.stringify(await Promise.all(devices.map(deviceFingerprint))));
  localStorage.removeItem(flagKey(memberId, peerNo));
}

/**
 * A message verified against `device` of contact `peerNo`: when that device is not in the set this browser last saw,
 * the change is flagged instead of passing quietly. `listed` is the contact's listing the device was found in
 * (used when only the older key-set id is remembered).
 */
export async function noteSenderDevice(memberId: string, peerNo: string, device: Pick<DeviceKeys, "encryptionKey" | "signingKey">, listed: Pick<DeviceKeys, "encryptionKey" | "signingKey">[]) {
  const remembered = localStorage.getItem(seenDevicesKey(memberId, peerNo));
  let changed: boolean;
  if (remembered) changed = !(JSON.parse(remembered) as string[]).includes(await deviceFingerprint(device));
  else {
    const seen = localStorage.getItem(seenKey(memberId, peerNo));
    changed = Boolean(seen && seen !== (await keySetId(listed)));
  }
  if (!changed || isFlagged(memberId, peerNo)) return;
  localStorage.setItem(flagKey(memberId, peerNo), "1");
  window.dispatchEvent(new CustomEvent(KEYS_EVENT, { detail: peerNo }));
}
