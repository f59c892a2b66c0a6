import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/profiles";
import type { ProfilesFeed } from "../../worker/contract/profiles";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { LatestChatBar } from "../features/chat/latest-chat-bar";
import { cardPage } from "../features/profiles/card-pages";
import { useCardPages } from "../features/profiles/use-card-pages";
import { ProfileGrid, ProfileStrip } from "../features/profiles/profile-grid";
import { readAsViewer } from "../features/profiles/profiles.server";
import { WhenNear } from "../lib/when-near";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** Cards that render with the page: six rows of three fill a phone's first screen (12 left the 13th on it, and the rest rendered at once). */
const FIRST_SCREEN = 18;

/** §9: 500 hot profiles on the feed, revealed a page at a time (card-pages.ts). One call: the API batches the feed's reads. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const feed = await readAsViewer<ProfilesFeed>({ request, context }, `/core/profiles/${params.projectCode.toUpperCase()}/feed`, { hot: [], birthdays: [], banners: [] });
  return { ...feed, hot: cardPage(feed.hot, new URL(request.url)) };
}

export default function Profiles({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("profiles");
  const projectCode = params.projectCode.toLowerCase();
  const more = useFetcher<typeof loader>();
  const { cards: hot, next } = useCardPages(loaderData.hot, more.data?.hot);
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
        {next !== null && (
          <button type="button" className="button" disabled={more.state !== "idle"} onClick={() => more.load(`/${projectCode}/profiles?at=${next}`)}>
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
