import { Switch } from "../../components/switch";
import { startTransition, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatMessage, PresenceEntry } from "../../../worker/contract/chat";
import type { ServerEvent } from "../../../worker/contract/realtime";
import { Avatar } from "../../components/avatar";
import { useToast, TOAST_DURATION } from "../../components/toast";
import { ownProfile } from "../../api/profiles-api";
import * as chat from "../../api/chat-api";
import { useRoom } from "../../lib/realtime";
import { readSession } from "../../lib/session-keys";
import { ChatConversation } from "./chat-conversation";

const flag = (key: string) => typeof localStorage !== "undefined" && localStorage.getItem(key) === "true";

/** The side list of recently active members, kept live by the Presence stream (audience-filtered by the server). */
function ActiveMembers({ projectCode, onPick }: { projectCode: string; onPick: (memberNo: string, nickname: string) => void }) {
  const { t } = useTranslation("chat");
  const [members, setMembers] = useState<PresenceEntry[]>([]);
  const [loaded, setLoaded] = useState(false);
  const load = useCallback(async () => {
    const body = await chat.presence(projectCode);
    // A transition: up to 30 rows with avatars render in yielding steps, not in one task beside the first messages.
    startTransition(() => {
      if ("info" in body) setMembers(body.info);
      setLoaded(true);
    });
  }, [projectCode]);
  useEffect(() => void load(), [load]);
  useRoom({
    party: "presence",
    room: `${projectCode.toUpperCase()}~presence`,
    onEvent: (event: ServerEvent) => {
      if (event.type === "presence.update") {
        setMembers((list) => {
          const known = list.some((m) => m.profile.simpleCode === event.member.memberNo);
          if (!known) void load();
          return list.map((m) => (m.profile.simpleCode === event.member.memberNo ? { ...m, online: event.member.online, lastSeen: event.member.lastSeen } : m));
        });
      }
    },
  });
  const me = readSession()?.memberNo;
  return (
    <aside className="chat-side" aria-label={t("activeMembers")}>
      <h2>{t("activeMembers")}</h2>
      <ul className="chat-side-list">
        {members.map((m) => (
          <li key={m.profile.simpleCode}>
            <button type="button" className="chat-side-member" disabled={m.profile.simpleCode === me} onClick={() => onPick(m.profile.simpleCode, m.profile.nickname)}>
              <Avatar profile={m.profile} size={28} decorative />
              <span className="chat-side-name">{m.profile.nickname || m.profile.simpleCode}</span>
              <span className={m.online ? "presence-dot presence-online" : "presence-dot"} role="img" aria-label={m.online ? t("online") : t("offline")} />
            </button>
          </li>
        ))}
        {!loaded && <li className="muted">{t("common:loading")}</li>}
        {loaded && members.length === 0 && <li className="muted">{t("nobodyActive")}</li>}
      </ul>
    </aside>
  );
}

/** §2 Public chat: side list, private-message toggle, verified-only filter (`showKycOnly`), image send. */
export function PublicChat({
  projectCode,
  chatroomId,
  initialMessages,
  initialPartial,
}: { projectCode: string; chatroomId: string; initialMessages?: ChatMessage[] | null; initialPartial?: boolean }) {
  const { t } = useTranslation("chat");
  const toast = useToast();
  const [kycOnly, setKycOnly] = useState(false);
  const [isPrivate, setIsPrivate] = useState(false);
  const [to, setTo] = useState<{ memberNo: string; nickname: string } | null>(null);

  useEffect(() => {
    setKycOnly(flag("showKycOnly"));
    // §3 `setIsPrivate` holds the switch for this visit only: each visit starts with it off, so a switch
    // armed days ago never sends the next message privately unnoticed.
    localStorage.setItem("setIsPrivate", "false");
    const saved = localStorage.getItem("messageTo");
    if (saved) {
      try {
        setTo(JSON.parse(saved));
      } catch {
        localStorage.removeItem("messageTo");
      }
    }
  }, []);

  const pick = useCallback((memberNo: string, nickname: string) => {
    const next = { memberNo, nickname };
    setTo(next);
    localStorage.setItem("messageTo", JSON.stringify(next));
  }, []);

  async function togglePrivate(next: boolean) {
    if (next) {
      // §4: the private-reply switch turns on only with an avatar (fetched from the profile if not cached).
      const session = readSession();
      let avatar = session?.avator ?? "";
      if (!avatar && session) {
        const body = await ownProfile(session.memberId);
        avatar = "info" in body ? body.info.avator : "";
        if (avatar) localStorage.setItem("avator", avatar);
      }
      if (!avatar) {
        toast(t("privateNeedsAvatar"), "warning", TOAST_DURATION.warning);
        return;
      }
    }
    setIsPrivate(next);
    localStorage.setItem("setIsPrivate", String(next));
  }

  return (
    <div className="public-chat">
      <div className="public-chat-main">
        <div className="chat-toolbar row">
          <h1>{t("publicTitle")}</h1>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the switch inside is a button, which a label does name and click */}
          <label className="chat-switch">
            <Switch
              checked={kycOnly}
              onCheckedChange={(v) => {
                setKycOnly(v);
                localStorage.setItem("showKycOnly", String(v));
              }}
              aria-label={t("verifiedOnly")}
            />
            <span aria-hidden="true">{t("verifiedOnly")}</span>
          </label>
        </div>
        <ChatConversation
          projectCode={projectCode}
          chatroomId={chatroomId}
          initialMessages={initialMessages}
          initialPartial={initialPartial}
          title={t("publicTitle")}
          filter={kycOnly ? (m) => (m.profile?.kycStatus ?? 0) >= 1 || m.pending === true : undefined}
          onPickMember={pick}
          sendOptions={{ isPrivate: isPrivate && Boolean(to), toMemberNo: isPrivate ? (to?.memberNo ?? null) : null }}
          composeExtras={
            <div className="row chat-compose-extras">
              {/* biome-ignore lint/a11y/noLabelWithoutControl: the switch inside is a button, which a label does name and click */}
              <label className="chat-switch">
                <Switch checked={isPrivate} onCheckedChange={(v) => void togglePrivate(v)} aria-label={t("privateToggle")} />
                <span aria-hidden="true">{t("privateToggle")}</span>
              </label>
              {isPrivate && (
                <span className="muted">
                  {to ? t("privateTo", { name: to.nickname || to.memberNo }) : t("pickRecipient")}
                </span>
              )}
            </div>
          }
        />
      </div>
      <ActiveMembers projectCode={projectCode} onPick={(no, nick) => {
          pick(no, nick);
          void togglePrivate(true);
        }} />
    </div>
  );
}
