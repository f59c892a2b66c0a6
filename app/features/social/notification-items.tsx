import { useState } from "react";
import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import type { NotificationType } from "../../../worker/contract/notifications";
import type { FriendStatus, NotificationTarget, NotificationView } from "../../../worker/contract/social";
import { useToast } from "../../components/toast";
import { TimeAgo, useFormat } from "../../i18n/use-format";
import { errorText } from "../../lib/error-text";
import { Avatar, publicProfileHref } from "../../components/avatar";
import { FollowRequestNoticeActions, FollowRequestText } from "./follow-requests";
import * as moderation from "../../api/moderation-api";
import * as social from "../../api/social-api";

type ViewProps = { item: NotificationView; name: string };

/**
 * Notifications are stored as a type plus parameters and rendered here, one component per type, in the
 * viewer's language (house style) — never as server-made sentences.
 */
const VIEWS: Record<NotificationType, (props: ViewProps) => React.ReactNode> = {
  follow: ({ name }) => <Text k="notification.follow" values={{ name }} />,
  friendRequest: ({ name }) => <Text k="notification.friendRequest" values={{ name }} />,
  friendAccepted: ({ name }) => <Text k="notification.friendAccepted" values={{ name }} />,
  guestbook: ({ item, name }) => <Text k="notification.guestbook" values={{ name, excerpt: String(item.params.excerpt ?? "") }} />,
  flame: ({ item, name }) => <Text k={flameKey(item.params)} values={{ name }} />,
  privateMessage: ({ name }) => <Text k="notification.privateMessage" values={{ name }} />,
  missionSubmitted: ({ name }) => <Text k="notification.missionSubmitted" values={{ name }} />,
  missionReviewed: ({ name }) => <Text k="notification.missionReviewed" values={{ name }} />,
  aiImageReady: () => <Text k="notification.aiImageReady" />,
  submember: ({ name }) => <Text k="notification.submember" values={{ name }} />,
  messageRequest: ({ name }) => <Text k="notification.messageRequest" values={{ name }} />,
  moderation: ModerationText,
  followRequest: ({ name }) => <FollowRequestText name={name} />,
  reportOutcome: ReportOutcomeText,
  lotteryWon: LotteryWonText,
};

/** Controls a notification offers beside opening it (kept outside the link: no button inside an anchor). */
const ACTIONS: Partial<Record<NotificationType, (props: ViewProps) => React.ReactNode>> = {
  friendRequest: FriendRequestActions,
  moderation: ModerationActions,
  followRequest: ({ item, name }) => <FollowRequestNoticeActions memberNo={item.actorMemberNo} name={name} />,
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
  return <span className="notice-text">{t(k, values ?? {})}</span>;
}

function FriendRequestActions({ item }: ViewProps) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const [status, setStatus] = useState<FriendStatus | null>(null);
  async function answer(action: "accept" | "reject") {
    if (!item.actorMemberNo) return;
    const body = await social.friendAction(action, item.actorMemberNo);
    if (isOk(body)) setStatus(body.info.friendStatus);
    else toast(errorText(t, body), "error");
  }
  if (status === "friends") return <span className="person-meta">{t("friend.friends")}</span>;
  if (status !== null || !item.actorMemberNo) return null;
  return (
    <span className="entry-actions">
      <button type="button" className="button button-primary" onClick={() => void answer("accept")}>
        {t("friend.accept")}
      </button>
      <button type="button" className="button" onClick={() => void answer("reject")}>
        {t("friend.reject")}
      </button>
    </span>
  );
}

/** A moderation outcome for the member it affects. */
function ModerationText({ item }: ViewProps) {
  const { t } = useTranslation("moderation");
  const format = useFormat();
  const outcome = String(item.params.outcome ?? "");
  const until = typeof item.params.until === "string" ? item.params.until : null;
  const key = outcome === "suspended" && !until ? "notice.suspendedIndefinitely" : `notice.${outcome}`;
  return <span className="notice-text">{t(key, { until: until ? format.dateTime(until) : "" })}</span>;
}

/** A report the member made was decided: upheld or dismissed, nothing about who decided or how. */
function ReportOutcomeText({ item }: ViewProps) {
  const { t } = useTranslation("reporting");
  return <span className="notice-text">{t(item.params.outcome === "upheld" ? "outcome.upheld" : "outcome.dismissed")}</span>;
}

/** The member's ticket won a daily draw (README Decisions "Collectibles and the daily lottery"). */
function LotteryWonText({ item }: ViewProps) {
  const { t } = useTranslation("collectibles");
  return <span className="notice-text">{t("lottery.won", { count: Number(item.params.coins ?? 0), date: String(item.params.drawDate ?? "") })}</span>;
}

/** A suspension or takedown may be appealed once (409611 after). */
function ModerationActions({ item }: ViewProps) {
  const { t } = useTranslation("moderation");
  const toast = useToast();
  const projectCode = (useParams().projectCode ?? "smp").toUpperCase();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [sent, setSent] = useState(false);
  async function appeal() {
    const body = await moderation.appeal(projectCode, item.params.idAction as number, text);
    if (isOk(body)) {
      setSent(true);
      setOpen(false);
      toast(t("appealSent"));
    } else toast(errorText(t, body), "error");
  }
  if (item.params.appealable !== true || sent) return null;
  if (!open)
    return (
      <span className="entry-actions">
        <button type="button" className="button" onClick={() => setOpen(true)}>
          {t("appeal")}
        </button>
      </span>
    );
  return (
    <span className="stack">
      <label>
        {t("appealText")}
        <textarea value={text} maxLength={1000} rows={3} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="button" className="button button-primary" onClick={() => void appeal()}>
        {t("appeal")}
      </button>
    </span>
  );
}

/** Where a notification's target lives in the app (§2 routes); the server decided the viewer may open it. */
export function targetHref(projectCode: string, target: NotificationTarget): string {
  const p = projectCode.toLowerCase();
  switch (target.kind) {
    case "profile":
      return publicProfileHref(p, target.memberNo);
    case "conversation":
      return `/${p}/notification/${encodeURIComponent(target.chatroomId)}`;
    case "note":
      return `/${p}/notes/${target.idChatroomMessage}`;
    case "mission":
      return `/${p}/mission/${target.idMission}`;
    case "review":
      return `/${p}/review/${target.idMission}`;
    case "requests":
      return `/${p}/notification`;
    case "guestbook":
      return `/${p}/guestbook`;
    case "aiRoom":
      return `/${p}/ai-room`;
    case "market":
      return `/${p}/market`;
    case "home":
      return `/${p}/home`;
    case "lottery":
      return `/${p}/lottery`;
  }
}

/**
 * One row per notification, one or two lines on a phone: avatar, text, short age ("3m"). Avatar and text open what
 * the notification is about when the server named a target; actions (accept, appeal) sit below, outside the link.
 */
export function NotificationItems({ items, empty }: { items: NotificationView[]; empty: string }) {
  const { t } = useTranslation("social");
  const projectCode = useParams().projectCode ?? "smp";
  if (items.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <ul className="notices">
      {items.map((item) => {
        const View = VIEWS[item.type];
        const Actions = ACTIONS[item.type];
        const name = item.actor ? item.actor.nickname || item.actor.simpleCode : t("notification.someone");
        const body = (
          <>
            {item.actor && <Avatar profile={item.actor} size={36} decorative />}
            {View ? <View item={item} name={name} /> : <span className="notice-text">{t("notification.unknown")}</span>}
            <TimeAgo className="notice-time" value={item.dateAdd} />
          </>
        );
        return (
          <li key={item.idNotification} className={`notice${item.read ? "" : " notice-unread"}`}>
            {item.target ? (
              <Link className="notice-main notice-link" to={targetHref(projectCode, item.target)}>
                {body}
              </Link>
            ) : (
              <div className="notice-main">{body}</div>
            )}
            {Actions && <Actions item={item} name={name} />}
          </li>
        );
      })}
    </ul>
  );
}
