import { useState } from "react";
import { useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import type { NotificationType } from "../../../worker/contract/notifications";
import type { FriendStatus, NotificationView } from "../../../worker/contract/social";
import { useToast } from "../../components/toast";
import { LocalTime, useFormat } from "../../i18n/use-format";
import { api } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { Avatar } from "../../components/avatar";

type ViewProps = { item: NotificationView; name: string };

/**
 * Notifications are stored as a type plus parameters and rendered here, one component per type, in the
 * viewer's language (house style) — never as server-made sentences.
 */
const VIEWS: Record<NotificationType, (props: ViewProps) => React.ReactNode> = {
  follow: ({ name }) => <Text k="notification.follow" values={{ name }} />,
  friendRequest: FriendRequestView,
  friendAccepted: ({ name }) => <Text k="notification.friendAccepted" values={{ name }} />,
  guestbook: ({ item, name }) => <Text k="notification.guestbook" values={{ name, excerpt: String(item.params.excerpt ?? "") }} />,
  flame: ({ item, name }) => <Text k={flameKey(item.params)} values={{ name }} />,
  privateMessage: ({ name }) => <Text k="notification.privateMessage" values={{ name }} />,
  missionSubmitted: ({ name }) => <Text k="notification.missionSubmitted" values={{ name }} />,
  missionReviewed: ({ name }) => <Text k="notification.missionReviewed" values={{ name }} />,
  aiImageReady: () => <Text k="notification.aiImageReady" />,
  submember: ({ name }) => <Text k="notification.submember" values={{ name }} />,
  messageRequest: ({ name }) => <Text k="notification.messageRequest" values={{ name }} />,
  moderation: ModerationView,
};

/** README Decisions "Verification": one notification type, the step in `params.action`; operators stay unnamed. */
function flameKey(params: Record<string, unknown>) {
  if (params.action === "approved") return "notification.flameApproved";
  if (params.action === "requested") return "notification.verificationRequested";
  if (params.action === "aiRoom") return "notification.aiRoomGranted";
  return params.by === "operator" ? "notification.flameNamed" : "notification.flameReceived";
}

function Text({ k, values }: { k: string; values?: Record<string, string> }) {
  const { t } = useTranslation("social");
  return <p className="notice-text">{t(k, values ?? {})}</p>;
}

function FriendRequestView({ item, name }: ViewProps) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const [status, setStatus] = useState<FriendStatus | null>(null);
  async function answer(action: "accept" | "reject") {
    const body = await api<{ friendStatus: FriendStatus }>(`/private/core/friends/${action}`, { body: { targetMemberNo: item.actorMemberNo } });
    if (isOk(body)) setStatus(body.info.friendStatus);
    else toast(errorText(t, body), "error");
  }
  return (
    <>
      <p className="notice-text">{t("notification.friendRequest", { name })}</p>
      {status === null && item.actorMemberNo && (
        <span className="entry-actions">
          <button type="button" className="button button-primary" onClick={() => void answer("accept")}>
            {t("friend.accept")}
          </button>
          <button type="button" className="button" onClick={() => void answer("reject")}>
            {t("friend.reject")}
          </button>
        </span>
      )}
      {status === "friends" && <span className="person-meta">{t("friend.friends")}</span>}
    </>
  );
}

/** A moderation outcome for the member it affects; a suspension or takedown may be appealed once (409611 after). */
function ModerationView({ item }: ViewProps) {
  const { t } = useTranslation("moderation");
  const format = useFormat();
  const toast = useToast();
  const projectCode = (useParams().projectCode ?? "smp").toUpperCase();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [sent, setSent] = useState(false);
  const outcome = String(item.params.outcome ?? "");
  const until = typeof item.params.until === "string" ? item.params.until : null;
  const key = outcome === "suspended" && !until ? "notice.suspendedIndefinitely" : `notice.${outcome}`;
  async function appeal() {
    const body = await api(`/private/core/moderation/${projectCode}/appeals`, { body: { idAction: item.params.idAction, text } });
    if (isOk(body)) {
      setSent(true);
      setOpen(false);
      toast(t("appealSent"));
    } else toast(errorText(t, body), "error");
  }
  return (
    <>
      <p className="notice-text">{t(key, { until: until ? format.dateTime(until) : "" })}</p>
      {item.params.appealable === true && !sent && !open && (
        <span className="entry-actions">
          <button type="button" className="button" onClick={() => setOpen(true)}>
            {t("appeal")}
          </button>
        </span>
      )}
      {open && (
        <span className="stack">
          <label>
            {t("appealText")}
            <textarea value={text} maxLength={1000} rows={3} onChange={(e) => setText(e.target.value)} />
          </label>
          <button type="button" className="button button-primary" onClick={() => void appeal()}>
            {t("appeal")}
          </button>
        </span>
      )}
    </>
  );
}

export function NotificationItems({ items, empty }: { items: NotificationView[]; empty: string }) {
  const { t } = useTranslation("social");
  if (items.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <ul className="notices">
      {items.map((item) => {
        const View = VIEWS[item.type];
        const name = item.actor ? item.actor.nickname || item.actor.simpleCode : t("notification.someone");
        return (
          <li key={item.idNotification} className={`notice${item.read ? "" : " notice-unread"}`}>
            {item.actor && <Avatar profile={item.actor} size={36} />}
            {View ? <View item={item} name={name} /> : <p className="notice-text">{t("notification.unknown")}</p>}
            <LocalTime className="entry-time" value={item.dateAdd} />
          </li>
        );
      })}
    </ul>
  );
}
