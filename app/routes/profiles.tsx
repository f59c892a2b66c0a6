import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/profiles";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import type { ProfilesFeed } from "../../worker/contract/profiles";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { LatestChatBar } from "../features/chat/latest-chat-bar";
import { ProfileGrid, ProfileStrip } from "../features/profiles/profile-grid";
import { readAsViewer } from "../features/profiles/profiles.server";
import { WhenNear } from "../features/profiles/when-near";
import "../features/profiles/profiles.css";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** Cards per page of the feed: the page brings the first, "Load more" the next (`?from=`, through this loader). */
const FEED_PAGE = 48;
/** Cards that render with the page: six rows of three fill a phone's first screen (12 left the 13th on it, and the rest rendered at once). */
const FIRST_SCREEN = 18;

/**
 * §9: 500 hot profiles on the feed, revealed 48 at a time. One call: the API batches the feed's reads. Only the
 * page asked for travels (README Decisions "Lighter main pages"): all 500 made the page's HTML some 200 KB.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const feed = await readAsViewer<ProfilesFeed>({ request, context }, `/core/profiles/${params.projectCode.toUpperCase()}/feed`, { hot: [], birthdays: [], banners: [] });
  const from = Math.min(Math.max(0, Math.trunc(Number(new URL(request.url).searchParams.get("from")) || 0)), feed.hot.length);
  return { ...feed, hot: feed.hot.slice(from, from + FEED_PAGE), hotTotal: feed.hot.length, from };
}

export default function Profiles({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("profiles");
  const projectCode = params.projectCode.toLowerCase();
  const more = useFetcher<typeof loader>();
  const [later, setLater] = useState<ProfileSummary[]>([]);
  const hot = later.length ? dedupe([...loaderData.hot, ...later]) : loaderData.hot;
  // A page arrives once per press: appended when it starts where the list ends.
  useEffect(() => {
    if (more.data && more.data.from > 0) setLater((list) => (more.data && loaderData.hot.length + list.length === more.data.from ? [...list, ...more.data.hot] : list));
  }, [more.data, loaderData.hot.length]);
  return (
    <main className="page stack">
      <div className="section-head">
        <h1>{t("feed.title")}</h1>
        <Link className="button button-primary" to={`/${projectCode}/public-chat/${PUBLIC_CHATROOM_ID}`}>
          {t("feed.post")}
        </Link>
      </div>
      <ProfileStrip profiles={loaderData.birthdays} label={t("feed.birthdays")} />
      <LatestChatBar projectCode={projectCode} />
      <ProfileGrid profiles={hot} label={t("feed.members")} eager={FIRST_SCREEN} firstScreen={FIRST_SCREEN} />
      <div className="row">
        {loaderData.hot.length + later.length < loaderData.hotTotal && (
          <button type="button" className="button" disabled={more.state !== "idle"} onClick={() => more.load(`/${projectCode}/profiles?from=${loaderData.hot.length + later.length}`)}>
            {t("common:loadMore")}
          </button>
        )}
        <Link className="button" to={`/${projectCode}/all-profiles`}>
          {t("feed.more")}
        </Link>
        <Link className="button" to={`/${projectCode}/avatar-wall`}>
          {t("wall.title")}
        </Link>
      </div>
      {loaderData.banners.length > 0 && (
        <WhenNear minHeight={PHOTOS_MIN_HEIGHT}>
          {() => (
            <section className="section">
              <h2>{t("feed.photos")}</h2>
              <ul className="photo-grid" aria-label={t("feed.photos")}>
                {loaderData.banners.map((b) => (
                  <li key={b.idBanner}>
                    <Link to={`/${projectCode}/share/${b.memberNo}`}>
                      {b.image ? (
                        <img src={b.image} alt={t("photoAlt", { name: b.profile.nickname || b.memberNo })} width={b.width} height={b.height} loading="lazy" className={b.blur ? "blurred" : undefined} />
                      ) : (
                        <span className="photo-missing" role="img" aria-label={t("photoAlt", { name: b.profile.nickname || b.memberNo })} style={{ aspectRatio: `${b.width} / ${b.height}` }} />
                      )}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </WhenNear>
      )}
    </main>
  );
}

/** The photos sit under the 48 cards: rendered when they near the screen, in a box of about their height. */
const PHOTOS_MIN_HEIGHT = 400;

/** The feed can change between two pages (a member's rank moves): a card is shown once. */
function dedupe(list: ProfileSummary[]): ProfileSummary[] {
  const seen = new Set<string>();
  return list.filter((p) => !seen.has(p.simpleCode) && seen.add(p.simpleCode));
}
