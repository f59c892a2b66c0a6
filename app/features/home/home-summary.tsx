import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { HomeDashboard as Dashboard } from "../../../worker/contract/home";
import { Avatar } from "../../components/avatar";
import { Icon } from "../../components/icon";
import { formatNumber } from "../../i18n/format";
import { useLiveMcoin } from "../market/coins-live";
import { FlameRequests } from "../social/flame-requests";
import { profileHref } from "./profile-href";

// Home's first screen, block by block: each its own component, so hydration can pause between them on a slow phone
// (one component rendering the whole dashboard was a single unbroken piece of work).

type Props = { data: Dashboard; projectCode: string };

/** The member's avatar and greeting, the roulette and logout. */
export function HomeHeader({ data, projectCode: p, onLogout }: Props & { onLogout: () => void }) {
  const { t } = useTranslation("home");
  const me = data.me;
  return (
    <header className="home-header">
      <div className="row">
        <Avatar profile={me} size={44} />
        {/* A new member has no nickname yet: greet them and point at the profile, never at their member number. */}
        {me.nickname ? (
          <h1>{t("greeting", { name: me.nickname })}</h1>
        ) : (
          <div>
            <h1>{t("rules:greeting.newMember")}</h1>
            <Link to={`/${p}/profile`} className="link-button">
              {t("rules:greeting.chooseNickname")}
            </Link>
          </div>
        )}
      </div>
      <div className="row">
        <Link to={`?showRoulette=true`} className="button" aria-label={t("roulette.open")}>
          <Icon name="wheel" /> <span className="hide-narrow">{t("roulette.open")}</span>
        </Link>
        <button type="button" className="button" onClick={onLogout}>
          {t("common:logout")}
        </button>
      </div>
    </header>
  );
}

/** The flame's holder (§9); its holder also sees the requests for it. */
export function FlameCard({ data, projectCode: p }: Props) {
  const { t } = useTranslation("home");
  const flame = data.flame;
  if (!flame) return null;
  const mine = flame.profile.simpleCode === data.me.simpleCode;
  return (
    <section className="home-section card flame-card" aria-labelledby="flame-title">
      <h2 id="flame-title"><Icon name="flame" className="icon-flame" /> {t("flame.title")}</h2>
      <Link to={profileHref(p, flame.memberNo)} className="row">
        <Avatar profile={flame.profile} size={56} />
        <span>{mine ? t("flame.mine") : t("flame.holder", { name: flame.profile.nickname || flame.memberNo })}</span>
      </Link>
      {mine && <FlameRequests projectCode={p} />}
    </section>
  );
}

/** Reminders, and the profile checklist a new member works through. */
export function HomeCards({ data, projectCode: p }: Props) {
  const { t } = useTranslation("home");
  const checklistDone = Object.values(data.checklist).every(Boolean);
  return (
    <div className="home-columns">
      <section className="home-section card" aria-labelledby="reminders-title">
        <h2 id="reminders-title"><Icon name="alarm" /> {t("reminders.title")}</h2>
        {data.reminders.length === 0 ? (
          <p className="muted">{t("reminders.empty")}</p>
        ) : (
          <ul className="reminder-list">
            {data.reminders.map((r) => (
              <li key={r.idReminder}>
                <strong>{r.title}</strong>
                {r.description && <span className="muted"> — {r.description}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="home-section card" aria-labelledby="checklist-title">
        <h2 id="checklist-title">{checklistDone ? t("checklist.done") : t("checklist.title")}</h2>
        <ul className="checklist">
          {(["nickname", "introduction", "avatarUploaded", "avatarQualified"] as const).map((key) => (
            <li key={key} className={data.checklist[key] ? "check-ok" : "check-missing"}>
              <span aria-hidden="true">{data.checklist[key] ? "✓" : "✗"}</span> {t(`checklist.${key}`)}
            </li>
          ))}
        </ul>
        {!checklistDone && (
          <Link to={`/${p}/profile`} className="link-button">
            {t("checklist.edit")}
          </Link>
        )}
      </section>
    </div>
  );
}

/** Counts: guestbook, visitors, coins (live), and the profile; then the entries the member's kycStatus opens. */
export function HomeTiles({ data, projectCode: p }: Props) {
  const { t, i18n } = useTranslation("home");
  const me = data.me;
  // The tile follows coin-changing actions (photo ratings here) without a reload.
  const mcoin = useLiveMcoin(data.coins.mcoin);
  return (
    <>
      <nav className="tiles" aria-label={t("tiles.label")}>
        <Link to={`/${p}/message`} className="tile">
          <span className="tile-label">{t("tiles.guestbook")}</span>
          <span className="tile-value">{formatNumber(i18n.language, data.guestbook?.count ?? 0)}</span>
          {(data.guestbook?.unread ?? 0) > 0 && <span className="badge tile-badge">{t("tiles.guestbookUnread", { count: data.guestbook!.unread })}</span>}
        </Link>
        <Link to={`/${p}/profile`} className="tile">
          <span className="tile-label">{t("tiles.visitors")}</span>
          <span className="tile-value">{formatNumber(i18n.language, me.pageViews)}</span>
          <span className="tile-sub muted">{t("tiles.pageViews")}</span>
        </Link>
        <Link to={`/${p}/market`} className="tile">
          <span className="tile-label">{t("tiles.mcoin")}</span>
          <span className="tile-value">{formatNumber(i18n.language, mcoin)}</span>
        </Link>
        <Link to={`/${p}/profile`} className="tile">
          <span className="tile-label">{t("tiles.profile")}</span>
          <span className="tile-value">☺</span>
        </Link>
      </nav>

      {me.kycStatus >= 1 && (
        <a href="/basement/" className="entry-card card">
          <strong>{t("entries.basement")}</strong>
          <span className="muted">{t("entries.basementHint")}</span>
        </a>
      )}
      {me.kycStatus === 9 && (
        <Link to={`/${p}/ai-room`} className="entry-card card">
          <strong><Icon name="palette" /> {t("entries.aiRoom")}</strong>
          <span className="muted">{t("entries.aiRoomHint")}</span>
        </Link>
      )}
    </>
  );
}
