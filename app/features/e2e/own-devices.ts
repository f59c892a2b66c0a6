import type { E2eOwnDevice } from "../../../worker/contract/e2e.constants";
import { isOk } from "../../../worker/contract/envelope";
import * as e2e from "../../api/e2e-api";
import { ensureDeviceRegistered } from "./device-keys";
import { deviceFingerprint, type DeviceKeys } from "./safety-number";

/**
 * Devices added to the member's OWN account (README Decisions "Linking a second device"; SECURITY.md): this browser
 * remembers the fingerprints of the member's devices it knows. Devices listed when it first looks and added no later
 * than this browser's own device are its starting point; any other device (or a known one whose keys changed) is
 * "new" until the member says it is theirs or removes it. A server adding a device of its own is seen this way.
 */
const knownKey = (memberId: string) => `e2eOwnKnown:${memberId}`;
/** Fired on window when the list of new own devices may have changed. */
export const OWN_EVENT = "velvet:e2e-own-devices";

function readKnown(memberId: string): Record<string, string> | null {
  try {
    const raw = localStorage.getItem(knownKey(memberId));
    return raw ? (JSON.parse(raw) as Record<string, string>) : null;
  } catch {
    return null;
  }
}

/** The member's devices this browser does not know yet (newest first), this browser's own device excluded. */
export async function newOwnDevices(memberId: string): Promise<E2eOwnDevice[]> {
  const check = await ensureDeviceRegistered(memberId);
  if (!check.registered) return [];
  const listed = await e2e.ownDevices();
  if (!isOk(listed)) return [];
  const mine = listed.info.find((d) => d.deviceId === check.device.deviceId);
  let known = readKnown(memberId);
  if (!known) {
    known = {};
    for (const d of listed.info) if (d.deviceId === mine?.deviceId || (mine && d.dateAdd <= mine.dateAdd)) known[d.deviceId] = await deviceFingerprint(d);
    localStorage.setItem(knownKey(memberId), JSON.stringify(known));
  }
  const fresh: E2eOwnDevice[] = [];
  for (const d of listed.info) if (d.deviceId !== check.device.deviceId && known[d.deviceId] !== (await deviceFingerprint(d))) fresh.push(d);
  return fresh.sort((a, b) => (a.dateAdd < b.dateAdd ? 1 : -1));
}

/** The member says this device is theirs (or linked it from here): no more notice for these keys. */
export async function acknowledgeOwnDevice(memberId: string, device: Pick<DeviceKeys, "deviceId" | "encryptionKey" | "signingKey">) {
  const known = readKnown(memberId) ?? {};
  known[device.deviceId] = await deviceFingerprint(device);
  localStorage.setItem(knownKey(memberId), JSON.stringify(known));
  window.dispatchEvent(new Event(OWN_EVENT));
}
