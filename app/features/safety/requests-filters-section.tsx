import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { DEFAULT_REQUESTS_FILTERS, type RequestsFilters } from "../../../worker/contract/requests-filters.constants";
import { useToast } from "../../components/toast";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

/** The anchor the requests tray and the notifications list link to. */
export const REQUESTS_FILTERS_ANCHOR = "requests-filters";

/**
 * Filters for the requests tray and notifications (README Decisions "Filters for requests and notifications"): one
 * set of criteria and where it applies. The server stores and enforces them; this form only edits the owner's row.
 */
export function RequestsFiltersSection() {
  const { t } = useTranslation("requests-filters");
  const toast = useToast();
  const [draft, setDraft] = useState<RequestsFilters>(DEFAULT_REQUESTS_FILTERS);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    void (async () => {
      const body = await settings.requestsFilters();
      if (isOk(body)) setDraft(body.info);
      setLoaded(true);
    })();
  }, []);

  async function save() {
    const body = await settings.saveRequestsFilters(draft);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setDraft(body.info);
    toast(t("saved"), "success");
  }

  const check = (key: "noAvatar" | "notFollowed" | "inRequests" | "inNotifications") => (
    <label className="settings-row">
      <span className="settings-row-text">{t(key)}</span>
      <input type="checkbox" checked={draft[key]} disabled={!loaded} onChange={(e) => setDraft({ ...draft, [key]: e.target.checked })} />
    </label>
  );
  return (
    <section className="card" id={REQUESTS_FILTERS_ANCHOR} aria-labelledby="settings-requests-filters">
      <h2 id="settings-requests-filters">{t("title")}</h2>
      <p className="settings-row-hint">{t("intro")}</p>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label className="settings-row">
          <span className="settings-row-text">{t("newerThanDays")}</span>
          <input
            type="number"
            inputMode="numeric"
            min={0}
            max={365}
            step={1}
            style={{ width: "5rem" }}
            value={draft.newerThanDays}
            disabled={!loaded}
            onChange={(e) => setDraft({ ...draft, newerThanDays: Math.max(0, Math.min(365, Math.trunc(Number(e.target.value) || 0))) })}
          />
        </label>
        {check("noAvatar")}
        {check("notFollowed")}
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="settings-row-hint">{t("appliesTo")}</legend>
          {check("inRequests")}
          {check("inNotifications")}
        </fieldset>
        <button className="button" type="submit" disabled={!loaded}>
          {t("save")}
        </button>
      </form>
    </section>
  );
}
