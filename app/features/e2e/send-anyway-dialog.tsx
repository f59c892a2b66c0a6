import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../components/dialog";

/** A question put to the sender before a private message goes out (README Decisions "Verifiable end-to-end keys"). */
export type SendAnywayAsk = { kind: "downgrade" | "changed"; resolve: (go: boolean) => void };

/**
 * "This message will not be end-to-end encrypted" / "Their keys changed": send anyway or cancel. Cancel, Escape and
 * the confirm's own close all end in `onAnswer`; the caller settles the question once (first answer wins).
 */
export function SendAnywayDialog({ ask, onAnswer }: { ask: SendAnywayAsk; onAnswer: (send: boolean) => void }) {
  const { t } = useTranslation("e2e");
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => {
        if (!open) onAnswer(false);
      }}
      title={t(ask.kind === "downgrade" ? "downgradeTitle" : "changedTitle")}
      description={t(ask.kind === "downgrade" ? "downgradeBody" : "changedBody")}
      confirmLabel={t("sendAnyway")}
      danger
      onConfirm={() => onAnswer(true)}
    />
  );
}
