import { Switch } from "../../components/switch";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { setSafeMode } from "../../components/avatar";
import { useToast } from "../../components/toast";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

/** §3 local key: desktop notifications for this browser (set here or by the chat page's one-time popup). */
const NOTIFY_KEY = "enableNotification";

type Row = { id: string; label: string; hint?: string; checked: boolean; disabled?: boolean; onChange: (on: boolean) => void };

/**
 * Alerts and what the screen shows: desktop notifications (this browser), mute them (profile `muted`, §6), e-mail
 * alerts (`/core/social-settings`), and safe mode (profile `safeMode`: the server then sends only blurred renditions,
 * and every page draws generated placeholders from the `isSafeMode` key, §6).
 */
export function AlertsSection({
  memberId,
  initial,
}: {
  memberId: string;
  initial: { safeMode: boolean; muted: boolean; emailAlerts: boolean };
}) {
  const { t } = useTranslation("settings");
  const toast = useToast();
  const [state, setState] = useState(initial);
  const [desktop, setDesktop] = useState(false);
  const [desktopBlocked, setDesktopBlocked] = useState(false);

  // The server's switch is the truth; this browser's copy follows it as soon as Settings opens.
  useEffect(() => setSafeMode(initial.safeMode), [initial.safeMode]);
  useEffect(() => {
    const supported = "Notification" in window;
    setDesktop(supported && localStorage.getItem(NOTIFY_KEY) === "true" && Notification.permission === "granted");
    setDesktopBlocked(!supported || Notification.permission === "denied");
  }, []);

  async function patchProfile(patch: { safeMode?: boolean; muted?: boolean }) {
    const before = state;
    setState({ ...state, ...patch });
    const body = await settings.patchProfileSwitches(memberId, patch);
    if (!isOk(body)) {
      setState(before);
      return toast(errorText(t, body), "error");
    }
    setState((s) => ({ ...s, safeMode: body.info.safeMode, muted: body.info.muted }));
    if (patch.safeMode !== undefined) setSafeMode(body.info.safeMode);
    toast(t("saved"), "success");
  }

  async function setEmailAlerts(on: boolean) {
    setState((s) => ({ ...s, emailAlerts: on }));
    const body = await settings.setEmailAlerts(on);
    if (!isOk(body)) {
      setState((s) => ({ ...s, emailAlerts: !on }));
      return toast(errorText(t, body), "error");
    }
    toast(t("saved"), "success");
  }

  async function setDesktopNotifications(on: boolean) {
    if (!on) {
      localStorage.setItem(NOTIFY_KEY, "false");
      return setDesktop(false);
    }
    const permission = await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, String(permission === "granted"));
    setDesktop(permission === "granted");
    if (permission !== "granted") {
      setDesktopBlocked(permission === "denied");
      toast(t("alerts.desktopDenied"), "warning");
    }
  }

  const rows: Row[] = [
    { id: "desktop", label: t("alerts.desktop"), hint: desktopBlocked ? t("alerts.desktopDenied") : undefined, checked: desktop, disabled: desktopBlocked && !desktop, onChange: (on) => void setDesktopNotifications(on) },
    { id: "muted", label: t("alerts.muted"), checked: state.muted, onChange: (on) => void patchProfile({ muted: on }) },
    { id: "email", label: t("alerts.email"), checked: state.emailAlerts, onChange: (on) => void setEmailAlerts(on) },
    { id: "safe-mode", label: t("alerts.safeMode"), hint: t("alerts.safeModeHint"), checked: state.safeMode, onChange: (on) => void patchProfile({ safeMode: on }) },
  ];

  return (
    <section className="card" aria-labelledby="settings-alerts">
      <h2 id="settings-alerts">{t("alerts.title")}</h2>
      {rows.map((row) => (
        <div className="settings-row" key={row.id}>
          <label htmlFor={`settings-${row.id}`}>
            {row.label}
            {row.hint && <span className="settings-row-hint">{row.hint}</span>}
          </label>
          <Switch id={`settings-${row.id}`} checked={row.checked} disabled={row.disabled} onCheckedChange={row.onChange} />
        </div>
      ))}
    </section>
  );
}
