import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { E2eOwnDevice } from "../../../worker/contract/e2e.constants";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import { useFormat } from "../../i18n/use-format";
import * as e2e from "../../api/e2e-api";
import { errorText } from "../../lib/error-text";
import { readSession } from "../../lib/session-keys";
import { acknowledgeOwnDevice, newOwnDevices, OWN_EVENT } from "./own-devices";

/**
 * "A new device was added to your account" (README Decisions "Linking a second device"): shown in one-to-one
 * conversations and in Settings' device list for each of the member's devices this browser does not know yet,
 * with "It's mine" and "Remove it". `onChange` lets the device list read itself again after a removal.
 */
export function NewDeviceNotices({ onChange }: { onChange?: () => void }) {
  const { t } = useTranslation("e2e-link");
  const format = useFormat();
  const toast = useToast();
  const [devices, setDevices] = useState<E2eOwnDevice[]>([]);

  const load = useCallback(async () => {
    const session = readSession();
    if (!session) return;
    setDevices(await newOwnDevices(session.memberId).catch(() => []));
  }, []);

  useEffect(() => {
    void load();
    const again = () => void load();
    window.addEventListener(OWN_EVENT, again);
    return () => window.removeEventListener(OWN_EVENT, again);
  }, [load]);

  async function mine(device: E2eOwnDevice) {
    const session = readSession();
    if (session) await acknowledgeOwnDevice(session.memberId, device);
  }

  async function remove(device: E2eOwnDevice) {
    const body = await e2e.removeDevice(device.deviceId);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    toast(t("removed"), "delete");
    window.dispatchEvent(new Event(OWN_EVENT));
    onChange?.();
  }

  if (!devices.length) return null;
  return (
    <>
      {devices.map((device) => (
        <div key={device.deviceId} className="e2e-notice e2e-notice-warn e2e-new-device" role="alert">
          <p>{t("newDevice", { name: device.name, date: format.date(device.dateAdd, "shortDateTime") })}</p>
          <div className="e2e-notice-actions">
            <button type="button" className="button" onClick={() => void mine(device)}>
              {t("itsMine")}
            </button>
            <button type="button" className="button button-danger" aria-label={t("removeNamed", { name: device.name })} onClick={() => void remove(device)}>
              {t("removeIt")}
            </button>
          </div>
        </div>
      ))}
    </>
  );
}
