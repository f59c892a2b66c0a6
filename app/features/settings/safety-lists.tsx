import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import type { BlockItem, MuteItem } from "../../../worker/contract/social";
import { Avatar } from "../../components/avatar";
import { useToast } from "../../components/toast";
import { useFormat } from "../../i18n/use-format";
import * as social from "../../api/social-api";
import { errorText } from "../../lib/error-text";
import { BlockedPerson } from "../social/my-social-lists";

/**
 * Blocked and muted members, with unblock (§4: the first tap re-confirms, the second unblocks; the row is the social
 * feature's own) and unmute. The lists hold the newest 100 of each (the API's largest page).
 */
export function SafetyLists({ blocks: initialBlocks, mutes: initialMutes }: { blocks: BlockItem[]; mutes: MuteItem[] }) {
  const { t } = useTranslation("settings");
  const [blocks, setBlocks] = useState(initialBlocks);
  const [mutes, setMutes] = useState(initialMutes);
  return (
    <>
      <section className="card" aria-labelledby="settings-blocked">
        <h2 id="settings-blocked">{t("blocked.title", { count: blocks.length })}</h2>
        {blocks.length === 0 ? (
          <p className="empty-state">{t("blocked.empty")}</p>
        ) : (
          <ul className="people">
            {blocks.map((item) => (
              <BlockedPerson key={item.idBlock} item={item} onUnblocked={() => setBlocks((list) => list.filter((b) => b.idBlock !== item.idBlock))} />
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="settings-muted">
        <h2 id="settings-muted">{t("muted.title", { count: mutes.length })}</h2>
        <p className="settings-lead">{t("muted.lead")}</p>
        {mutes.length === 0 ? (
          <p className="empty-state">{t("muted.empty")}</p>
        ) : (
          <ul className="people">
            {mutes.map((item) => (
              <MutedPerson key={item.idMute} item={item} onUnmuted={() => setMutes((list) => list.filter((m) => m.idMute !== item.idMute))} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function MutedPerson({ item, onUnmuted }: { item: MuteItem; onUnmuted: () => void }) {
  const { t } = useTranslation("settings");
  const toast = useToast();
  const format = useFormat();
  const [busy, setBusy] = useState(false);
  const name = item.profile.nickname || item.profile.simpleCode;
  async function unmute() {
    setBusy(true);
    const body = await social.unmute(item.profile.simpleCode);
    setBusy(false);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    toast(t("social:mute.unmuted"), "success");
    onUnmuted();
  }
  return (
    <li className="person">
      <Avatar profile={item.profile} size={44} />
      <span className="person-name">{name}</span>
      <span className="person-meta" suppressHydrationWarning>
        {item.expiresAt ? t("social:lists.until", { date: format.dateTime(item.expiresAt) }) : t("social:duration.forever")}
      </span>
      <button type="button" className="button" disabled={busy} onClick={() => void unmute()} aria-label={t("muted.unmute", { name })}>
        {t("social:mute.unmute")}
      </button>
    </li>
  );
}
