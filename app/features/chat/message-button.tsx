import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Relationship } from "../../../worker/contract/social";
import type { MessagePermission } from "../../../worker/contract/chat";
import { LoginPrompt } from "../../components/avatar";
import * as chat from "../../api/chat-api";
import { useHydrated } from "../../lib/hydrated";
import { useMyMemberNo } from "../shell/viewer";
import { usePersonalRoomId } from "../shell/personal-room";

type Props = { projectCode: string; memberNo: string; nickname: string; relationship: Relationship | null };

/**
 * A profile's ways to talk: Message (a one-to-one room with this member) and their personal chatroom (§2, the md5
 * of the member code). The server keeps enforcing every rule (blocks, contact settings → the recipient's requests
 * tray); this only says up front what will happen. Visitors get the login prompt.
 */
export function ProfileMessageControls({ projectCode, memberNo, nickname, relationship }: Props) {
  const { t } = useTranslation("chat");
  // Null until hydrated (the server does not know who reads), then the reader's number or "" for a visitor: read in
  // the one transition after hydration (README Decisions "Browser-only values after hydration").
  const myMemberNo = useMyMemberNo();
  const me = useHydrated() ? (myMemberNo ?? "") : null;
  const [permission, setPermission] = useState<MessagePermission | "hidden" | null>(null);
  const [loginOpen, setLoginOpen] = useState(false);
  const personalRoomId = usePersonalRoomId(memberNo);
  const blocking = Boolean(relationship?.blocking);
  const blockedBy = Boolean(relationship?.blockedBy);
  useEffect(() => {
    if (!me || me === memberNo || blocking || blockedBy) return;
    let live = true;
    void chat.messagePermission(memberNo).then((body) => live && setPermission("info" in body ? body.info : "hidden"));
    return () => {
      live = false;
    };
  }, [me, memberNo, blocking, blockedBy]);
  // Shown whole once the reader is known and (for a member) the personal room's name is ready: no shift inside it.
  if (me === null || (me !== "" && personalRoomId === null)) return null;
  const name = nickname || memberNo;
  const visitor = me === "";
  let message: React.ReactNode = null;
  if (visitor) {
    message = (
      <button type="button" className="button button-primary" onClick={() => setLoginOpen(true)}>
        {t("messageButton")}
      </button>
    );
  } else if (me !== memberNo && !blockedBy && permission !== "hidden") {
    const reason = blocking ? t("messageBlocked") : permission?.reason === "paused" ? t("messagePaused") : null;
    message =
      reason || !permission ? (
        <>
          <button type="button" className="button button-primary" disabled aria-describedby={reason ? "message-reason" : undefined}>
            {t("messageButton")}
          </button>
          {reason && (
            <span id="message-reason" className="muted">
              {reason}
            </span>
          )}
        </>
      ) : (
        <>
          <Link className="button button-primary" to={`/${projectCode}/chatroom/${me}/${memberNo}`}>
            {t("messageButton")}
          </Link>
          {permission.asRequest && <span className="muted">{t("messageAsRequest", { name })}</span>}
        </>
      );
  }
  return (
    <section className="card profile-message-controls" aria-label={t("contactHeading", { name })}>
      {message}
      {visitor ? (
        <button type="button" className="button" onClick={() => setLoginOpen(true)}>
          {t("personalRoomLink")}
        </button>
      ) : (
        <Link className="button" to={`/${projectCode}/chatroom/${personalRoomId}`}>
          {t("personalRoomLink")}
        </Link>
      )}
      {loginOpen && <LoginPrompt projectCode={projectCode} forMembers onClose={() => setLoginOpen(false)} />}
    </section>
  );
}
