import { Switch } from "../../components/switch";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { disablePush, enablePush, pushSupported, pushWanted } from "./web-push";

/**
 * The clear control for push on this device (README Decisions "Push that reaches a closed app"): on asks the
 * browser for permission and subscribes; a denial is only logged (§145) and shown as a short hint.
 */
export function PushSwitch() {
  const { t } = useTranslation("push");
  const [supported, setSupported] = useState(false);
  const [on, setOn] = useState(false);
  const [hint, setHint] = useState<"denied" | null>(null);
  useEffect(() => {
    setSupported(pushSupported());
    setOn(pushSupported() && pushWanted() && Notification.permission === "granted");
  }, []);
  if (!supported) return null;
  async function change(checked: boolean) {
    setOn(checked);
    setHint(null);
    if (!checked) return void (await disablePush());
    const outcome = await enablePush();
    if (outcome !== "granted") {
      setOn(false);
      setHint("denied");
    }
  }
  return (
    <>
      <label className="switch-label" htmlFor="push-on-device">
        <Switch id="push-on-device" checked={on} onCheckedChange={(checked) => void change(checked)} />
        {t("switch")}
      </label>
      {hint && (
        <p className="muted" role="status">
          {t("denied")}
        </p>
      )}
    </>
  );
}
