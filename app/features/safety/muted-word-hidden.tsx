import { useState } from "react";
import { useTranslation } from "react-i18next";
import { lateModule, useLateModule } from "../../lib/late-module";
import type { MuteWordsDialogProps } from "./mute-words-dialog";

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

const muteWordsDialog = lateModule(() => import("./mute-words-dialog"));

/**
 * A message's "Mute words…" dialog (mute-words-dialog.tsx), fetched when first opened: the form is Settings' code,
 * which pages with messages need only after a tap. Closes again if it cannot be fetched (offline); the next tap retries.
 */
export function MuteWordsDialog(props: MuteWordsDialogProps) {
  const module = useLateModule(muteWordsDialog, true, props.onClose);
  return module ? <module.MuteWordsDialog {...props} /> : null;
}
