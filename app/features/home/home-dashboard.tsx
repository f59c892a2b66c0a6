import { Suspense, lazy } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { HomeDashboard as Dashboard } from "../../../worker/contract/home";
import { LatestChatBar } from "../chat/latest-chat-bar";
import { ChatPreview } from "../chat/chat-preview";
import { AvatarStrip } from "./avatar-strip";
import { FeedbackBox } from "./feedback-box";
import { HotGrid, HotWall, NoteCards } from "./home-lists";
import { FlameCard, HomeCards, HomeHeader, HomeTiles } from "./home-summary";
import { ReviewPrompt } from "./review-prompt";
import { VisitorsDrawer } from "./visitors-drawer";
import { lateModule } from "../../lib/late-module";
import { WhenNearLate } from "../../lib/when-near";
import "./home.css";

// The roulette loads when a member opens it (README Decisions "Lighter main pages").
const Roulette = lazy(() => import("./roulette").then((m) => ({ default: m.Roulette })));
// The photos close home, far below a phone's first screen: grid and code come when the member scrolls near them
// (README Decisions "Below the fold, the code on demand too").
const photoGrid = lateModule(() => import("./photo-grid"));

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
  const { t } = useTranslation("home");
  const [params, setParams] = useSearchParams();
  const p = projectCode;

  const closeRoulette = () => {
    const next = new URLSearchParams(params);
    next.delete("showRoulette");
    setParams(next, { replace: true });
  };

  return (
    <main className="page home">
      <HomeHeader data={data} projectCode={p} onLogout={onLogout} />
      <FlameCard data={data} projectCode={p} />
      <HomeCards data={data} projectCode={p} />
      <HomeTiles data={data} projectCode={p} />

      <LatestChatBar projectCode={p} />
      <ChatPreview projectCode={p} />
      <ReviewPrompt review={data.photoReview} projectCode={p} />

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
          <WhenNearLate minHeight={0} late={photoGrid}>
            {(m) => <m.PhotoGrid photos={data.photos ?? []} projectCode={p} hasAvatar={Boolean(data.me.avator)} />}
          </WhenNearLate>
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
