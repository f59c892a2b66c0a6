import { Switch } from "../../components/switch";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import type { QuietHours } from "../../../worker/contract/quiet-hours";
import { useToast } from "../../components/toast";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const DEFAULT_WINDOW = { startHour: 22, endHour: 7 };

/** This browser's time zone and the zones it knows (the server checks the name again). */
function zones(current: string) {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return known.includes(current) ? known : [current, ...known];
}
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * Quiet hours for web push (README Decisions "Push that reaches a closed app"): during them the server sends no push
 * to the member's devices; notices still wait in the inbox. Stored on the server and read only by its owner.
 */
export function QuietHoursSection({ memberId }: { memberId: string }) {
  const { t } = useTranslation("quiet");
  const toast = useToast();
  const [saved, setSaved] = useState<QuietHours | null>(null);
  const [draft, setDraft] = useState({ ...DEFAULT_WINDOW, timeZone: "UTC" });

  useEffect(() => {
    void (async () => {
      const body = await settings.quietHours(memberId);
      if (!isOk(body)) return;
      setSaved(body.info);
      setDraft(body.info.enabled ? { startHour: body.info.startHour, endHour: body.info.endHour, timeZone: body.info.timeZone } : { ...DEFAULT_WINDOW, timeZone: browserZone() });
    })();
  }, [memberId]);

  async function save(next: QuietHours) {
    const body = await settings.saveQuietHours(memberId, next);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setSaved(body.info);
    toast(t("saved"), "success");
  }

  const enabled = saved?.enabled ?? false;
  const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;
  return (
    <section className="card" aria-labelledby="settings-quiet">
      <h2 id="settings-quiet">{t("title")}</h2>
      <div className="settings-row">
        <label htmlFor="settings-quiet-enabled">
          {t("enabled")}
          <span className="settings-row-hint">{t("hint")}</span>
        </label>
        <Switch
          id="settings-quiet-enabled"
          checked={enabled}
          disabled={saved === null}
          onCheckedChange={(on) => void save(on ? { enabled: true, ...draft } : { enabled: false })}
        />
      </div>
      {enabled && (
        <form
          className="settings-quiet-form stack"
          onSubmit={(event) => {
            event.preventDefault();
            void save({ enabled: true, ...draft });
          }}
        >
          <label>
            {t("start")}
            <select value={draft.startHour} onChange={(e) => setDraft({ ...draft, startHour: Number(e.target.value) })}>
              {HOURS.map((h) => (
                <option key={h} value={h}>
                  {hourLabel(h)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("end")}
            <select value={draft.endHour} onChange={(e) => setDraft({ ...draft, endHour: Number(e.target.value) })}>
              {HOURS.map((h) => (
                <option key={h} value={h}>
                  {hourLabel(h)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("timeZone")}
            <select value={draft.timeZone} onChange={(e) => setDraft({ ...draft, timeZone: e.target.value })}>
              {zones(draft.timeZone).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </label>
          {draft.startHour === draft.endHour && <p className="settings-row-hint">{t("sameHour")}</p>}
          <button className="button" type="submit" disabled={draft.startHour === draft.endHour}>
            {t("save")}
          </button>
        </form>
      )}
    </section>
  );
}
