import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ProfileEditor, ProfilePatchInput } from "./use-profile-editor";

const HANDLES = ["skypeId", "wechatId", "telegramId", "twitterId", "instagramId", "dcardId"] as const;

/** Birthday, safeword, introduction (§5 150–300 characters advised), contact handles, website and coordinates: one Save. */
export function MyDetailsForm({ editor }: { editor: ProfileEditor }) {
  const { t } = useTranslation("profiles");
  const { profile, setProfile, save, busy } = editor;
  const [coordinates, setCoordinates] = useState(profile.latitude != null && profile.longitude != null ? `${profile.latitude},${profile.longitude}` : "");
  const introLength = profile.introduction.length;

  async function submitDetails(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const patch: Record<string, unknown> = { introduction: text("introduction"), websiteUrl: text("websiteUrl").trim() };
    for (const h of HANDLES) patch[h] = text(h);
    if (text("birthday")) patch.birthday = text("birthday");
    if (text("safeword").trim()) patch.safeword = text("safeword");
    if (coordinates.trim()) patch.coordinates = coordinates.trim();
    await save(patch as ProfilePatchInput);
  }

  return (
    <form className="card form" onSubmit={submitDetails} aria-labelledby="details-heading">
      <h2 id="details-heading">{t("my.details")}</h2>
      <label className="field">
        <span>{t("my.birthday")}</span>
        <input type="date" name="birthday" defaultValue={profile.birthday ?? ""} />
      </label>
      <label className="field">
        <span>{t("my.safeword")}</span>
        <input name="safeword" defaultValue={profile.safeword} maxLength={100} />
      </label>
      <label className="field">
        <span>{t("my.introduction")}</span>
        <textarea
          name="introduction"
          rows={15}
          maxLength={2000}
          value={profile.introduction}
          onChange={(e) => {
            const introduction = e.currentTarget.value;
            setProfile((p) => ({ ...p, introduction }));
          }}
          aria-describedby="intro-counter"
        />
      </label>
      <span id="intro-counter" className={`counter ${introLength < 150 || introLength > 300 ? "counter-warn" : ""}`}>
        {t("my.introCounter", { count: introLength })}
      </span>
      {HANDLES.map((h) => (
        <label className="field" key={h}>
          <span>{t(`contact.${h}`)}</span>
          <input name={h} defaultValue={profile[h]} maxLength={100} />
        </label>
      ))}
      <label className="field">
        <span>{t("contact.websiteUrl")}</span>
        <input name="websiteUrl" type="url" defaultValue={profile.websiteUrl} placeholder="https://" />
      </label>
      <label className="field">
        <span>{t("my.coordinates")}</span>
        <input value={coordinates} onChange={(e) => setCoordinates(e.currentTarget.value)} placeholder="25.033,121.565" inputMode="decimal" />
      </label>
      <button type="submit" className="button button-primary" disabled={busy}>
        {t("common:save")}
      </button>
    </form>
  );
}
