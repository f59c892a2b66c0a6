import { Switch } from "../../components/switch";
import { useTranslation } from "react-i18next";
import { setSafeMode } from "../../components/avatar";
import type { ProfileEditor } from "./use-profile-editor";

/** The profile's on/off settings: rainbow, safe mode (§4), closed profile, muted. */
export function MySwitchesSection({ editor }: { editor: ProfileEditor }) {
  const { t } = useTranslation("profiles");
  const { profile, save } = editor;
  return (
    <section className="card stack" aria-labelledby="switches-heading">
      <h2 id="switches-heading">{t("my.settings")}</h2>
      {(
        [
          ["isRainbow", t("my.rainbow"), profile.isRainbow, (v: boolean) => void save({ isRainbow: v })],
          ["safeMode", t("my.safeMode"), profile.safeMode, (v: boolean) => void save({ safeMode: v }).then((saved) => saved && setSafeMode(v))],
          ["closed", t("my.closed"), profile.closed, (v: boolean) => void save({ closed: v })],
          ["muted", t("my.muted"), profile.muted, (v: boolean) => void save({ muted: v })],
        ] as const
      ).map(([key, label, checked, onChange]) => (
        <div className="switch-row" key={key}>
          <label htmlFor={`switch-${key}`}>{label}</label>
          <Switch id={`switch-${key}`} checked={checked} onCheckedChange={onChange} />
        </div>
      ))}
    </section>
  );
}
