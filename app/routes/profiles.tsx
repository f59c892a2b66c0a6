import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/profiles";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import type { Banner } from "../../worker/contract/profiles";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat.constants";
import { LatestChatBar } from "../features/chat/latest-chat-bar";
import { ProfileGrid, ProfileStrip } from "../features/profiles/profile-grid";
import { readAsViewer } from "../features/profiles/profiles.server";
import "../features/profiles/profiles.css";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

type Feed = { hot: ProfileSummary[]; birthdays: ProfileSummary[]; banners: (Banner & { profile: ProfileSummary })[] };

/** §9: 500 hot profiles on the feed; cards are revealed 48 at a time. One call: the API batches the feed's reads. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return readAsViewer<Feed>({ request, context }, `/core/profiles/${params.projectCode.toUpperCase()}/feed`, { hot: [], birthdays: [], banners: [] });
}

export default function Profiles({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("profiles");
  const projectCode = params.projectCode.toLowerCase();
  const [shown, setShown] = useState(48);
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
      <ProfileGrid profiles={loaderData.hot.slice(0, shown)} label={t("feed.members")} eager={4} />
      <div className="row">
        {shown < loaderData.hot.length && (
          <button type="button" className="button" onClick={() => setShown((n) => n + 48)}>
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
    </main>
  );
}
