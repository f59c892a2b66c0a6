import { Suspense, lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { HOME_LIMITS } from "../../../worker/contract/home.constants";
import type { HomeDashboard as Dashboard } from "../../../worker/contract/home";
import { Icon } from "../../components/icon";

// The photo review loads when a member opens it (README Decisions "Lighter main pages").
const PhotoReview = lazy(() => import("./photo-review").then((m) => ({ default: m.PhotoReview })));

/** §9 photo review: the prompt while photos wait for this member's ratings, and the review itself once opened. */
export function ReviewPrompt({ review, projectCode }: { review: Dashboard["photoReview"]; projectCode: string }) {
  const { t } = useTranslation("home");
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  // Mounted from the first opening on: its session (the queue, the count of ratings) lasts while the page does.
  const [started, setStarted] = useState(false);
  if (done || !review || review.done || review.available <= 0) return null;
  return (
    <section className="home-section card review-prompt" aria-labelledby="review-title">
      <h2 id="review-title"><Icon name="star" className="icon-star" /> {t("review.prompt", { count: HOME_LIMITS.reviewSession })}</h2>
      <button
        type="button"
        className="button button-primary"
        onClick={() => {
          setStarted(true);
          setOpen(true);
        }}
      >
        {t("review.start")}
      </button>
      {started && (
        <Suspense fallback={null}>
          <PhotoReview projectCode={projectCode} open={open} onOpenChange={setOpen} onDone={() => setDone(true)} />
        </Suspense>
      )}
    </section>
  );
}
