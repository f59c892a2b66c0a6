import { Suspense, lazy, startTransition, useEffect, useState } from "react";
import { FlameRequests } from "../social/flame-requests";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { HOME_LIMITS, fairPick } from "../../../worker/contract/home.constants";
import type { HomeDashboard as Dashboard } from "../../../worker/contract/home";
import { formatNumber } from "../../i18n/format";
import { LatestChatBar } from "../chat/latest-chat-bar";
import { useLiveMcoin } from "../market/coins-live";
import { ChatPreview } from "../chat/chat-preview";
import { Avatar } from "../../components/avatar";
import { useRestWhenNear } from "../../lib/use-rest-when-near";
import { AvatarStrip, profileHref } from "./avatar-strip";
import { FeedbackBox } from "./feedback-box";
import { PhotoGrid } from "./photo-grid";
import { VisitorsDrawer } from "./visitors-drawer";
import { Icon } from "../../components/icon";
import "./home.css";

// The photo review and the roulette load when a member opens them (README Decisions "Lighter main pages").
const PhotoReview = lazy(() => import("./photo-review").then((m) => ({ default: m.PhotoReview })));
const Roulette = lazy(() => import("./roulette").then((m) => ({ default: m.Roulette })));

/**
 * §9: the wall shows 5 random hot profiles, drawn after hydration so server and client render alike. Its own
 * component, so the draw re-renders five avatars and not the whole dashboard (~0.2 s on a throttled phone).
 */
function HotWall({ hotProfiles, projectCode }: { hotProfiles: Dashboard["hotProfiles"]; projectCode: string }) {
  const { t } = useTranslation("home");
  const [wall, setWall] = useState(() => hotProfiles.slice(0, HOME_LIMITS.wall));
  useEffect(() => {
    const pool = [...hotProfiles];
    const out: typeof pool = [];
    while (pool.length > 0 && out.length < HOME_LIMITS.wall) out.push(pool.splice(fairPick(pool.length), 1)[0]!);
    // Below the first screen: never worth a blocking render while the page hydrates.
    startTransition(() => setWall(out));
  }, [hotProfiles]);
  return (
    <section className="home-section" aria-labelledby="wall-title">
      <div className="home-section-head">
        <h2 id="wall-title">{t("wall.title")}</h2>
        <Link to={`/${projectCode}/avatar-wall`} className="link-button">
          {t("wall.open")}
        </Link>
      </div>
      <ul className="wall">
        {wall.map((w) => (
          <li key={w.simpleCode}>
            <Link to={profileHref(projectCode, w.simpleCode)}>
              <Avatar profile={w} size={64} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** §9 hot profiles as a grid; the rest of them shows when the grid comes on screen. */
function HotGrid({ first, more, onNear, projectCode }: { first: Dashboard["hotProfiles"]; more?: Dashboard["hotProfiles"]; onNear?: () => void; projectCode: string }) {
  const { t } = useTranslation("home");
  const [ref, hotProfiles] = useRestWhenNear(first, more, onNear);
  return (
    <section className="home-section" aria-labelledby="hot-title" ref={ref}>
      <h2 id="hot-title">{t("hot.title")}</h2>
      {hotProfiles.length === 0 && <p className="muted">{t("hot.empty")}</p>}
      <ul className="hot-grid">
        {hotProfiles.map((h) => (
          <li key={h.simpleCode}>
            <Link to={profileHref(projectCode, h.simpleCode)} className="hot-card">
              <Avatar profile={h} size={72} />
              <span className="avatar-strip-name">{h.nickname}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Members' introductions as cards; the rest of them shows when the cards come on screen. */
function NoteCards({ first, more, onNear, projectCode }: { first: Dashboard["notes"]; more?: Dashboard["notes"]; onNear?: () => void; projectCode: string }) {
  const { t } = useTranslation("home");
  const [ref, notes] = useRestWhenNear(first, more, onNear);
  return (
    <section className="home-section" aria-labelledby="notes-title" ref={ref}>
      <h2 id="notes-title">{t("notes.title")}</h2>
      {notes.length === 0 && <p className="muted">{t("notes.empty")}</p>}
      <ul className="note-cards">
        {notes.map((n) => (
          <li key={n.profile.simpleCode}>
            {/* Named by the visible nickname (a label that differs from what is shown fails WCAG 2.5.3); the
                introduction is its description. */}
            <Link
              to={profileHref(projectCode, n.profile.simpleCode)}
              className="note-card card"
              aria-labelledby={`note-name-${n.profile.simpleCode}`}
              aria-describedby={`note-text-${n.profile.simpleCode}`}
            >
              <span className="row">
                <Avatar profile={n.profile} size={32} />
                <strong id={`note-name-${n.profile.simpleCode}`}>{n.profile.nickname}</strong>
              </span>
              <span className="note-text" id={`note-text-${n.profile.simpleCode}`}>
                {n.introduction}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** §2 home dashboard: every block, from one loader. */
export function HomeDashboard({
  data,
  more,
  onListNear,
  projectCode,
  onLogout,
}: {
  data: Dashboard;
  /** The whole of each long list, once the page has read it; each list shows its rest when it comes on screen. */
  more?: Dashboard | null;
  /** A long list came on screen: the page reads the rest of them (one request for all). */
  onListNear?: () => void;
  projectCode: string;
  onLogout: () => void;
}) {
  const { t, i18n } = useTranslation("home");
  const [params, setParams] = useSearchParams();
  const [reviewOpen, setReviewOpen] = useState(false);
  const [reviewDone, setReviewDone] = useState(false);
  // Mounted from the first opening on: its session (the queue, the count of ratings) lasts while the page does.
  const [reviewStarted, setReviewStarted] = useState(false);
  const p = projectCode;
  const me = data.me;
  // The tile follows coin-changing actions (photo ratings here) without a reload.
  const mcoin = useLiveMcoin(data.coins.mcoin);
  const checklistDone = Object.values(data.checklist).every(Boolean);

  const closeRoulette = () => {
    const next = new URLSearchParams(params);
    next.delete("showRoulette");
    setParams(next, { replace: true });
  };

  return (
    <main className="page home">
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

      {data.flame && (
        <section className="home-section card flame-card" aria-labelledby="flame-title">
          <h2 id="flame-title"><Icon name="flame" className="icon-flame" /> {t("flame.title")}</h2>
          <Link to={profileHref(p, data.flame.memberNo)} className="row">
            <Avatar profile={data.flame.profile} size={56} />
            <span>{data.flame.profile.simpleCode === me.simpleCode ? t("flame.mine") : t("flame.holder", { name: data.flame.profile.nickname || data.flame.memberNo })}</span>
          </Link>
          {data.flame.profile.simpleCode === me.simpleCode && <FlameRequests projectCode={p} />}
        </section>
      )}

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

      <LatestChatBar projectCode={p} />
      <ChatPreview projectCode={p} />

      {!reviewDone && data.photoReview && !data.photoReview.done && data.photoReview.available > 0 && (
        <section className="home-section card review-prompt" aria-labelledby="review-title">
          <h2 id="review-title"><Icon name="star" className="icon-star" /> {t("review.prompt", { count: HOME_LIMITS.reviewSession })}</h2>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setReviewStarted(true);
              setReviewOpen(true);
            }}
          >
            {t("review.start")}
          </button>
          {reviewStarted && (
            <Suspense fallback={null}>
              <PhotoReview projectCode={p} open={reviewOpen} onOpenChange={setReviewOpen} onDone={() => setReviewDone(true)} />
            </Suspense>
          )}
        </section>
      )}

      <AvatarStrip title={t("strips.suggested")} profiles={data.suggested} more={more?.suggested} onNear={onListNear} projectCode={p} />
      <AvatarStrip title={t("strips.related")} profiles={data.related} more={more?.related} onNear={onListNear} projectCode={p} />
      <AvatarStrip title={t("strips.latestSpeech")} profiles={data.latestSpeech} more={more?.latestSpeech} onNear={onListNear} projectCode={p} />
      <AvatarStrip title={t("strips.latestOnline")} profiles={data.latestOnline} more={more?.latestOnline} onNear={onListNear} projectCode={p} />
      <AvatarStrip
        title={t("strips.newbies")}
        profiles={data.newbies.profiles}
        more={more?.newbies.profiles}
        onNear={onListNear}
        projectCode={p}
        extra={
          <Link to={`/${p}/all-profiles`} className="link-button">
            {t("strips.newbiesTotal", { count: data.newbies.total })}
          </Link>
        }
      />
      <AvatarStrip title={t("strips.mostVisits")} profiles={data.mostVisits} more={more?.mostVisits} onNear={onListNear} projectCode={p} />
      {data.visitors && (
        <AvatarStrip
          title={t("strips.visitors")}
          profiles={data.visitors.map((v) => v.profile)}
          projectCode={p}
          extra={<VisitorsDrawer visitors={data.visitors} projectCode={p} />}
        />
      )}

      <HotWall hotProfiles={more?.hotProfiles ?? data.hotProfiles} projectCode={p} />
      <HotGrid first={data.hotProfiles} more={more?.hotProfiles} onNear={onListNear} projectCode={p} />
      <NoteCards first={data.notes} more={more?.notes} onNear={onListNear} projectCode={p} />

      <FeedbackBox projectCode={p} />

      {data.photos && (
        <section className="home-section" aria-labelledby="photos-title">
          <h2 id="photos-title">{t("photos.title")}</h2>
          <PhotoGrid photos={data.photos} projectCode={p} hasAvatar={Boolean(me.avator)} />
        </section>
      )}

      {params.get("showRoulette") === "true" && (
        <Suspense fallback={null}>
          <Roulette open onClose={closeRoulette} />
        </Suspense>
      )}
    </main>
  );
}
