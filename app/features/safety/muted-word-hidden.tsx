import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Dialog, DialogClose } from "../../components/dialog";
import { MutedWordForm } from "./muted-words-section";

/**
 * An item whose text the server withheld because it contains one of the member's muted words (README Decisions
 * "Muted words"): a collapsed line with "Show anyway", which asks the server for that one item's text.
 */
export function MutedHidden({ onShow }: { onShow: () => Promise<void> | void }) {
  const { t } = useTranslation("muted");
  const [busy, setBusy] = useState(false);
  return (
    <span className="muted-hidden">
      <span>{t("hidden")}</span>
      <button
        type="button"
        className="link-button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void Promise.resolve(onShow()).finally(() => setBusy(false));
        }}
      >
        {t("showAnyway")}
      </button>
    </span>
  );
}

/** A message's "Mute words…": add a word or phrase right there, with a way to the full list in Settings. */
export function MuteWordsDialog({ projectCode, onClose, onAdded }: { projectCode: string; onClose: () => void; onAdded?: () => void }) {
  const { t } = useTranslation("muted");
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t("title")} description={t("dialogHint")} descriptionClassName="dialog-body muted">
      <MutedWordForm
        idPrefix="chat-muted"
        onAdded={() => {
          onAdded?.();
          onClose();
        }}
      />
      <div className="dialog-actions">
        <Link className="button" to={`/${projectCode}/settings#muted-words`}>
          {t("manage")}
        </Link>
        <DialogClose>{t("common:cancel")}</DialogClose>
      </div>
    </Dialog>
  );
}
