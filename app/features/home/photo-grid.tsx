import { Suspense, lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { HOME_LIMITS } from "../../../worker/contract/home.constants";
import type { HomePhoto } from "../../../worker/contract/home";
import { profileHref } from "./profile-href";
import { Dialog } from "../../components/dialog";
import { revealPhoto } from "../../lib/reveal-photo";
import { RevealButton, StrangerSettingsLink, revealedPhoto } from "../stranger-media/stranger-reveal";
import { Icon } from "../../components/icon";

// The comment sheet (its end-to-end encryption, md5 room names, posting reminder) loads when a member opens one:
// none of it is needed to show home (README Decisions "Lighter main pages").
const PhotoComments = lazy(() => import("./photo-comments").then((m) => ({ default: m.PhotoComments })));

/** §9: a blurred photo reveals after 10 taps (the original then comes from the server: a member's reveal call). */
const REVEAL_TAPS = 10;

/**
 * §2 photo masonry grid: tap opens the member page (or the photo's url when it has one); the comment icon
 * opens the comment modal; the expand icon shows the photo full screen; blurred photos unblur after 10 taps.
 */
export function PhotoGrid({ photos, projectCode, hasAvatar }: { photos: HomePhoto[]; projectCode: string; hasAvatar: boolean }) {
  const { t } = useTranslation("home");
  const [shown, setShown] = useState<number>(HOME_LIMITS.photoGrid);
  const [taps, setTaps] = useState<Record<number, number>>({});
  /** Originals the server handed over after the 10th tap (the page holds only blurred renditions before). */
  const [originals, setOriginals] = useState<Record<number, string>>({});
  const [full, setFull] = useState<HomePhoto | null>(null);
  const [comments, setComments] = useState<HomePhoto | null>(null);
  const navigate = useNavigate();

  const imageOf = (photo: HomePhoto) => originals[photo.idBanner] ?? photo.image;
  const isBlurred = (photo: HomePhoto) => photo.blur && originals[photo.idBanner] === undefined;

  async function open(photo: HomePhoto) {
    const count = taps[photo.idBanner] ?? 0;
    if (isBlurred(photo)) {
      setTaps({ ...taps, [photo.idBanner]: count + 1 });
      if (count + 1 < REVEAL_TAPS) return;
      const body = await revealPhoto(photo.idBanner);
      if ("info" in body) setOriginals((known) => ({ ...known, [photo.idBanner]: body.info.image }));
      else setTaps((known) => ({ ...known, [photo.idBanner]: 0 }));
      return;
    }
    if (photo.url) window.open(photo.url, "_blank", "noopener,noreferrer");
    else navigate(profileHref(projectCode, photo.memberNo));
  }

  if (photos.length === 0) return <p className="muted">{t("photos.empty")}</p>;
  const name = (p: HomePhoto) => p.profile?.nickname || p.memberNo;
  return (
    <>
      {photos.some((p) => p.strangerBlur) && <StrangerSettingsLink />}
      <ul className="masonry">
        {photos.slice(0, shown).map((photo) => {
          const left = Math.max(0, REVEAL_TAPS - (taps[photo.idBanner] ?? 0));
          const blurred = isBlurred(photo);
          return (
            <li key={photo.idBanner} className="masonry-item">
              <button
                type="button"
                className="photo-open"
                onClick={() => void open(photo)}
                aria-label={blurred ? t("photos.tapsLeft", { count: left }) : t("photos.open", { name: name(photo) })}
              >
                {imageOf(photo) ? (
                  <img src={imageOf(photo)} alt={t("review.photoOf", { name: name(photo) })} width={photo.width} height={photo.height} loading="lazy" className={blurred ? "blurred" : undefined} />
                ) : (
                  <span className="photo-missing" style={{ aspectRatio: `${photo.width} / ${photo.height}` }} />
                )}
              </button>
              <div className="photo-actions">
                <button type="button" className="icon-button small" onClick={() => setComments(photo)} aria-label={t("photos.comments", { count: photo.threadCount })}>
                  <Icon name="chat" />
                  {photo.threadCount > 0 && <span className="photo-count">{photo.threadCount}</span>}
                </button>
                {blurred && photo.strangerBlur && (
                  // Blurred by the member's stranger-media setting alone: one tap, not the §9 ten.
                  <RevealButton
                    name={name(photo)}
                    onReveal={async () => {
                      const image = await revealedPhoto(photo.idBanner);
                      if (image) setOriginals((known) => ({ ...known, [photo.idBanner]: image }));
                      return Boolean(image);
                    }}
                  />
                )}
                {!blurred && (
                  <button type="button" className="icon-button small" onClick={() => setFull(photo)} aria-label={t("photos.fullScreen")}>
                    ⤢
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {shown < photos.length && (
        <button type="button" className="button" onClick={() => setShown(shown + HOME_LIMITS.photoGrid)}>
          {t("common:loadMore")}
        </button>
      )}
      <Dialog
        className="fullscreen-photo"
        open={full !== null}
        onOpenChange={(o) => !o && setFull(null)}
        title={full ? t("review.photoOf", { name: name(full) }) : ""}
        titleClassName="visually-hidden"
        description={t("photos.fullScreen")}
        descriptionClassName="visually-hidden"
        returnFocus
        closeLabel={t("photos.closeFullScreen")}
      >
        {full && <img src={imageOf(full)} alt={t("review.photoOf", { name: name(full) })} />}
      </Dialog>
      {comments && (
        <Suspense fallback={null}>
          <PhotoComments open onOpenChange={(o) => !o && setComments(null)} memberNo={comments.memberNo} ownerName={name(comments)} hasAvatar={hasAvatar} />
        </Suspense>
      )}
    </>
  );
}
