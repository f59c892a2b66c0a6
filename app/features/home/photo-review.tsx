import { RadioGroup } from "radix-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReviewPhoto } from "../../../worker/contract/home";
import { HOME_LIMITS } from "../../../worker/contract/home.constants";
import { useToast } from "../../components/toast";
import * as home from "../../api/home-api";
import { announceCoinsChanged } from "../market/coins-live";
import { errorText } from "../../lib/error-text";
import { Dialog } from "../../components/dialog";


/**
 * §4 photo review: a session of 10 ratings (1–5, with reset) through POST /sns/banner-ratings; each
 * rating earns the M coin once per photo (server side). After the tenth the modal closes and the prompt goes.
 */
export function PhotoReview({ projectCode, open, onOpenChange, onDone }: { projectCode: string; open: boolean; onOpenChange: (open: boolean) => void; onDone: (rated: number) => void }) {
  const { t } = useTranslation("home");
  const toast = useToast();
  const [queue, setQueue] = useState<ReviewPhoto[] | null>(null);
  const [rated, setRated] = useState(0);
  const [rating, setRating] = useState("");
  const [busy, setBusy] = useState(false);
  const total = HOME_LIMITS.reviewSession;

  async function load() {
    const body = await home.reviewQueue(projectCode);
    setQueue("info" in body ? body.info : []);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads the queue the first time the sheet opens
  useEffect(() => {
    if (open && queue === null) void load();
  }, [open]);

  const current = queue?.[0];

  async function rate(event: React.FormEvent) {
    event.preventDefault();
    if (!current || !rating) return;
    setBusy(true);
    const body = await home.ratePhoto(current.idBanner, Number(rating));
    setBusy(false);
    if (!("info" in body) && body.returnCode !== "409501") {
      toast(errorText(t, body), "error");
    }
    // §9: a rating may earn 1 M coin; the home tile re-reads the balance.
    if ("info" in body) announceCoinsChanged();
    const count = "info" in body ? rated + 1 : rated;
    setRated(count);
    setRating("");
    const rest = queue!.slice(1);
    if (count >= total) {
      onOpenChange(false);
      onDone(count);
      toast(t("review.done", { count }), "banner");
      return;
    }
    if (rest.length === 0) {
      const more = await home.reviewQueue(projectCode);
      const next = "info" in more ? more.info : [];
      setQueue(next);
      if (next.length === 0) {
        onOpenChange(false);
        onDone(count);
      }
    } else setQueue(rest);
  }

  const name = current?.profile?.nickname || current?.memberNo || "";
  return (
    <Dialog
      className="dialog review-dialog"
      open={open}
      onOpenChange={onOpenChange}
      title={t("review.title")}
      description={t("review.progress", { current: Math.min(rated + 1, total), total })}
      descriptionClassName="muted"
      returnFocus
      closeLabel={t("common:close")}
    >
      {queue === null ? (
        <p className="muted">{t("common:loading")}</p>
      ) : !current ? (
        <p className="empty-state">{t("review.none")}</p>
      ) : (
        <form onSubmit={rate} className="stack">
          <img className="review-photo" src={current.image} alt={t("review.photoOf", { name })} width={current.width} height={current.height} />
          <RadioGroup.Root className="stars" value={rating} onValueChange={setRating} aria-label={t("review.rating")} orientation="horizontal">
            {[1, 2, 3, 4, 5].map((n) => (
              <RadioGroup.Item key={n} value={String(n)} className={`star${Number(rating) >= n ? " star-on" : ""}`} aria-label={t("review.star", { count: n })}>
                ★
              </RadioGroup.Item>
            ))}
          </RadioGroup.Root>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setRating("")} disabled={!rating}>
              {t("review.reset")}
            </button>
            <button type="submit" className="button button-primary" disabled={!rating || busy}>
              {t("review.submit")}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
