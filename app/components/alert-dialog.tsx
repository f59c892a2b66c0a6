import { useTranslation } from "react-i18next";
import { Dialog, DialogAction } from "./dialog";

/** A message with one OK button (§2: the login error dialog). Focus is trapped while open. */
export function MessageDialog({ open, title, message, onClose }: { open: boolean; title: string; message: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      kind="alert"
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={title}
      description={message}
      returnFocus
      actions={<DialogAction onClick={onClose}>{t("common:ok")}</DialogAction>}
    />
  );
}
