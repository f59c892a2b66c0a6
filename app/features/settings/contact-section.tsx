import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ContactSettings } from "../../../worker/contract/chat";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import * as settingsApi from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

const ACCEPT_FROM = ["everyone", "verified", "following", "friends"] as const satisfies readonly ContactSettings["acceptFrom"][];
const PRESENCE = ["everyone", "followers", "friends", "nobody"] as const satisfies readonly ContactSettings["presenceAudience"][];

/**
 * Who may message me directly (others' first message waits in my requests tray) and who sees me online:
 * `/sns/chat-settings` (README Decisions "Message requests"). The server applies both on every send and presence frame.
 */
export function ContactSection({ initial }: { initial: ContactSettings }) {
  const { t } = useTranslation("settings");
  const toast = useToast();
  const [settings, setSettings] = useState(initial);

  async function save(patch: Partial<ContactSettings>) {
    const before = settings;
    setSettings({ ...settings, ...patch });
    const body = await settingsApi.saveContactSettings(patch);
    if (!isOk(body)) {
      setSettings(before);
      return toast(errorText(t, body), "error");
    }
    setSettings(body.info);
    toast(t("saved"), "success");
  }

  return (
    <section className="card" aria-labelledby="settings-contact">
      <h2 id="settings-contact">{t("contact.title")}</h2>
      <fieldset className="settings-choices">
        <legend>{t("contact.acceptFrom")}</legend>
        {ACCEPT_FROM.map((value) => (
          <label key={value} className="settings-choice">
            <input type="radio" name="acceptFrom" value={value} checked={settings.acceptFrom === value} onChange={() => void save({ acceptFrom: value })} />
            {t(`contact.from.${value}`)}
          </label>
        ))}
      </fieldset>
      <p className="settings-lead">{t("contact.requestsHint")}</p>
      <fieldset className="settings-choices">
        <legend>{t("contact.presence")}</legend>
        {PRESENCE.map((value) => (
          <label key={value} className="settings-choice">
            <input type="radio" name="presenceAudience" value={value} checked={settings.presenceAudience === value} onChange={() => void save({ presenceAudience: value })} />
            {t(`contact.seen.${value}`)}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
