import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Dialog, DialogClose } from "../../components/dialog";
import { MutedWordForm } from "./muted-words-section";

export type MuteWordsDialogProps = { projectCode: string; onClose: () => void; onAdded?: () => void };

/** A message's "Mute words…": add a word or phrase right there, with a way to the full list in Settings. */
export function MuteWordsDialog({ projectCode, onClose, onAdded }: MuteWordsDialogProps) {
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
