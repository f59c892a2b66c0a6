import { RadioGroup } from "radix-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogAction, DialogClose } from "../../components/dialog";
import { genderLabel, lookForLabel } from "./profile-labels";
import type { ProfileEditor } from "./use-profile-editor";

/** Role (§4: asked twice before it is set, then locked) and what the member looks for. */
export function MyRoleSection({ editor }: { editor: ProfileEditor }) {
  const { t } = useTranslation("profiles");
  const { profile, save } = editor;
  const [pendingGender, setPendingGender] = useState<number | null>(null);
  const [confirmStep, setConfirmStep] = useState<0 | 1 | 2>(0);

  return (
    <section className="card stack" aria-labelledby="role-heading">
      <h2 id="role-heading">{t("my.role")}</h2>
      <RadioGroup.Root
        className="radio-row"
        aria-labelledby="role-heading"
        value={pendingGender != null ? String(pendingGender) : profile.multiGender ? String(profile.multiGender) : ""}
        disabled={profile.genderLocked}
        onValueChange={(value) => {
          setPendingGender(Number(value));
          setConfirmStep(1);
        }}
      >
        {[1, 2, 3, 4, 5, 6].map((g) => (
          <RadioGroup.Item key={g} value={String(g)} className="chip" aria-label={genderLabel(t, g)}>
            {genderLabel(t, g)}
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      {profile.genderLocked && <span className="counter">{t("my.roleLocked")}</span>}

      <h2 id="lookfor-heading">{t("my.lookFor")}</h2>
      <RadioGroup.Root
        className="radio-row"
        aria-labelledby="lookfor-heading"
        value={String(profile.lookFor)}
        onValueChange={(value) => void save({ lookFor: Number(value) })}
      >
        {[0, 1, 2, 3, 4, 5, 6].map((l) => (
          <RadioGroup.Item key={l} value={String(l)} className="chip" aria-label={lookForLabel(t, l)}>
            {lookForLabel(t, l)}
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>

      <Dialog
        kind="alert"
        open={confirmStep > 0}
        title={confirmStep === 1 ? t("roleConfirm.title") : t("roleConfirm.againTitle")}
        description={confirmStep === 1 ? t("roleConfirm.body", { role: genderLabel(t, pendingGender) }) : t("roleConfirm.againBody")}
        returnFocus
      >
        <div className="dialog-actions">
          <DialogClose
            onClick={() => {
              // §4: cancel clears the selection.
              setPendingGender(null);
              setConfirmStep(0);
            }}
          >
            {t("common:cancel")}
          </DialogClose>
          <DialogAction
            onClick={async (e) => {
              if (confirmStep === 1) {
                e.preventDefault();
                setConfirmStep(2);
                return;
              }
              setConfirmStep(0);
              if (pendingGender != null) await save({ multiGender: pendingGender });
              setPendingGender(null);
            }}
          >
            {t("common:confirm")}
          </DialogAction>
        </div>
      </Dialog>
    </section>
  );
}
