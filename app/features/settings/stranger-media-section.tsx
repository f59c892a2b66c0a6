import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { STRANGER_MEDIA, type StrangerMedia } from "../../../worker/contract/stranger-media.constants";
import { useToast } from "../../components/toast";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

/** The anchor blurred items link to (`/<project>/settings#stranger-media`). */
export const STRANGER_MEDIA_ANCHOR = "stranger-media";

/**
 * Whose avatars and photos reach this member blurred (README Decisions "Stranger media stays blurred"). The server
 * applies it to every list it sends; this card only reads and writes the owner's setting.
 */
export function StrangerMediaSection({ memberId }: { memberId: string }) {
  const { t } = useTranslation("stranger");
  const toast = useToast();
  const [mode, setMode] = useState<StrangerMedia | null>(null);

  useEffect(() => {
    void (async () => {
      const body = await settings.strangerMedia(memberId);
      if (isOk(body)) setMode(body.info.strangerMedia);
    })();
  }, [memberId]);

  async function save(next: StrangerMedia) {
    const before = mode;
    setMode(next);
    const body = await settings.saveStrangerMedia(memberId, next);
    if (!isOk(body)) {
      setMode(before);
      return toast(errorText(t, body), "error");
    }
    toast(t("saved"), "success");
  }

  return (
    <section className="card" id={STRANGER_MEDIA_ANCHOR} aria-labelledby="settings-stranger-media">
      <h2 id="settings-stranger-media">{t("title")}</h2>
      <p className="settings-lead">{t("lead")}</p>
      <fieldset className="settings-choices" disabled={mode === null}>
        <legend>{t("choose")}</legend>
        {STRANGER_MEDIA.map((value) => (
          <label key={value} className="settings-choice">
            <input type="radio" name="strangerMedia" value={value} checked={mode === value} onChange={() => void save(value)} />
            {t(`mode.${value}`)}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
