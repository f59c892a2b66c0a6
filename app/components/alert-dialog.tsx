import { AlertDialog } from "radix-ui";
import { useTranslation } from "react-i18next";
import { useReturnFocus } from "./return-focus";

/** A message with one OK button (§2: the login error dialog). Focus is trapped while open. */
export function MessageDialog({ open, title, message, onClose }: { open: boolean; title: string; message: string; onClose: () => void }) {
  const { t } = useTranslation();
  const returnFocus = useReturnFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog" {...returnFocus}>
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-body">{message}</AlertDialog.Description>
          <div className="dialog-actions">
            <AlertDialog.Action className="button button-primary" onClick={onClose}>
              {t("common:ok")}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
