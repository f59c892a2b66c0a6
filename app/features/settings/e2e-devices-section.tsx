import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { E2eOwnDevice } from "../../../worker/contract/e2e.constants";
import { isOk } from "../../../worker/contract/envelope";
import { ConfirmDialog } from "../../components/dialog";
import { useToast } from "../../components/toast";
import { useFormat } from "../../i18n/use-format";
import * as e2e from "../../api/e2e-api";
import { errorText } from "../../lib/error-text";
import { readSession } from "../../lib/session-keys";
import { ensureDeviceRegistered } from "../e2e/device-keys";
import { DeviceLinkPanel } from "../e2e/device-link-panel";
import { NewDeviceNotices } from "../e2e/own-device-notice";

/**
 * The member's devices that hold end-to-end message keys (README Decisions "Verifiable end-to-end keys"): name and
 * date added, this browser marked, each removable. Opening it also checks that this browser is still listed.
 */
export function E2eDevicesSection() {
  const { t } = useTranslation("e2e");
  const toast = useToast();
  const format = useFormat();
  const [devices, setDevices] = useState<E2eOwnDevice[] | null>(null);
  const [mine, setMine] = useState<string | null>(null);
  const [removing, setRemoving] = useState<E2eOwnDevice | null>(null);

  async function load() {
    const body = await e2e.ownDevices();
    if (isOk(body)) setDevices(body.info);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once on mount; `load` only reads the list again
  useEffect(() => {
    const session = readSession();
    void (async () => {
      if (session) {
        const check = await ensureDeviceRegistered(session.memberId).catch(() => null);
        if (check) setMine(check.device.deviceId);
      }
      await load();
      // Reached from a message this device cannot read yet ("Link this device"): show the section.
      if (window.location.hash === "#e2e-devices") document.getElementById("e2e-devices")?.scrollIntoView();
    })();
  }, []);

  async function remove(device: E2eOwnDevice) {
    setRemoving(null);
    const body = await e2e.removeDevice(device.deviceId);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    toast(t("removed"), "delete");
    await load();
  }

  return (
    <section className="card" id="e2e-devices" aria-labelledby="settings-e2e-devices">
      <h2 id="settings-e2e-devices">{t("devicesTitle")}</h2>
      <p className="settings-row-hint">{t("devicesHint")}</p>
      {/* README Decisions "Linking a second device": devices this browser does not know yet. */}
      <NewDeviceNotices onChange={() => void load()} />
      {devices?.length === 0 && <p className="muted">{t("noDevices")}</p>}
      <ul className="e2e-devices">
        {devices?.map((device) => (
          <li key={device.deviceId}>
            <span>
              {device.name}
              {device.deviceId === mine && <strong> · {t("thisDevice")}</strong>}
              <span className="settings-row-hint">
                {t("added", { date: format.date(device.dateAdd, "date") })}
              </span>
            </span>
            <button type="button" className="button" aria-label={t("removeNamed", { name: device.name })} onClick={() => setRemoving(device)}>
              {t("remove")}
            </button>
          </li>
        ))}
      </ul>
      <DeviceLinkPanel onLinked={() => void load()} />
      {removing && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setRemoving(null)}
          title={t("removeTitle")}
          description={t("removeBody")}
          confirmLabel={t("remove")}
          onConfirm={() => void remove(removing)}
          danger
        />
      )}
    </section>
  );
}
