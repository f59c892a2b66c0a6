import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CONNECTIONS_AUDIENCES, type ConnectionsVisibility } from "../../../worker/contract/connections.constants";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

/** The section's anchor: the hint beside the member's own lists links here (`settings#connections`). */
export const CONNECTIONS_SECTION_ID = "connections";

/**
 * Who sees my connections (README Decisions "Who sees my connections"): followers, following, friends and sub-members,
 * lists and counts, for everyone, friends only or only me. The server applies it on every answer that carries them;
 * this section only reads and writes the owner's own setting.
 */
export function ConnectionsSection({ memberId }: { memberId: string }) {
  const { t } = useTranslation("connections");
  const toast = useToast();
  const [audience, setAudience] = useState<ConnectionsVisibility | null>(null);

  useEffect(() => {
    void settings.connectionsVisibility(memberId).then((body) => isOk(body) && setAudience(body.info.connectionsVisibility));
  }, [memberId]);

  async function save(next: ConnectionsVisibility) {
    const before = audience;
    setAudience(next);
    const body = await settings.saveConnectionsVisibility(memberId, next);
    if (!isOk(body)) {
      setAudience(before);
      return toast(errorText(t, body), "error");
    }
    setAudience(body.info.connectionsVisibility);
    toast(t("saved"), "success");
  }

  return (
    <section className="card" id={CONNECTIONS_SECTION_ID} aria-labelledby="settings-connections">
      <h2 id="settings-connections">{t("title")}</h2>
      <p className="settings-lead">{t("lead")}</p>
      <fieldset className="settings-choices" disabled={audience === null}>
        <legend>{t("legend")}</legend>
        {CONNECTIONS_AUDIENCES.map((value) => (
          <label key={value} className="settings-choice">
            <input type="radio" name="connectionsVisibility" value={value} checked={audience === value} onChange={() => void save(value)} />
            {t(`audience.${value}`)}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
