import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogClose } from "../../components/dialog";

/**
 * §4 two-step confirm: the first step asks, the second says what cannot be undone; only then `onConfirm`.
 * Escape or Cancel at either step leaves everything as it was.
 */
export function ConfirmTwice({
  trigger,
  title,
  first,
  second,
  confirmLabel,
  onConfirm,
  danger = false,
}: {
  trigger: string;
  title: string;
  first: string;
  second: string;
  confirmLabel: string;
  onConfirm: () => Promise<void> | void;
  danger?: boolean;
}) {
  const { t } = useTranslation("market");
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <button type="button" className={`button ${danger ? "button-danger" : ""}`} onClick={() => setStep(1)}>
        {trigger}
      </button>
      <Dialog
        kind="alert"
        open={step > 0}
        onOpenChange={(open) => !open && setStep(0)}
        title={title}
        description={step === 1 ? first : second}
        returnFocus
        actions={
          <>
            <DialogClose>{t("cancel")}</DialogClose>
            {step === 1 ? (
              <button type="button" className="button button-primary" onClick={() => setStep(2)}>
                {t("continue")}
              </button>
            ) : (
              <button
                type="button"
                className="button button-primary"
                disabled={busy}
                onClick={async () => {
                  setBusy(true);
                  try {
                    await onConfirm();
                  } finally {
                    setBusy(false);
                    setStep(0);
                  }
                }}
              >
                {confirmLabel}
              </button>
            )}
          </>
        }
      />
    </>
  );
}
