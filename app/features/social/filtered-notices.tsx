import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { isOk } from "../../../worker/contract/envelope";
import type { NotificationView, } from "../../../worker/contract/social";
import * as social from "../../api/social-api";
import { REQUESTS_FILTERS_ANCHOR } from "../safety/requests-filters-section";
import { NotificationItems } from "./notification-items";

/**
 * The notifications' Filtered section (README Decisions "Filters for requests and notifications"): notices from
 * members the viewer filters, kept and never sounded or pushed, loaded only when opened. With the way to the filters.
 */
export function FilteredNotices() {
  const { t } = useTranslation("requests-filters");
  const projectCode = useParams().projectCode ?? "smp";
  const [items, setItems] = useState<NotificationView[] | null>(null);
  async function toggle() {
    if (items) return setItems(null);
    const body = await social.filteredNotifications();
    setItems(isOk(body) ? body.info.items : []);
  }
  return (
    <section className="stack" aria-label={t("filteredTitle")}>
      <div className="row" style={{ flexWrap: "wrap" }}>
        <button type="button" className="button" aria-expanded={items !== null} onClick={() => void toggle()}>
          {items ? t("hideFiltered") : t("showFiltered")}
        </button>
        <Link className="button" to={`/${projectCode}/settings#${REQUESTS_FILTERS_ANCHOR}`}>
          {t("settingsLink")}
        </Link>
      </div>
      {items && <NotificationItems items={items} empty={t("filteredEmpty")} />}
    </section>
  );
}
