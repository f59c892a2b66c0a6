import { Tabs } from "radix-ui";
import { Switch } from "../components/switch";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/message";
import { isOk } from "../../worker/contract/envelope";
import type { UnreadCounts } from "../../worker/contract/chat";
import type { ServerEvent } from "../../worker/contract/realtime";
import type { GuestbookCounts, GuestbookEntry, NotificationView, Page, SocialSettings } from "../../worker/contract/social";
import { useToast } from "../components/toast";
import { PushSwitch } from "../features/notifications/push-switch";
import { GuestbookEntries } from "../features/social/guestbook-entries";
import { FilteredNotices } from "../features/social/filtered-notices";
import { NotificationItems } from "../features/social/notification-items";
import { useTwoStep } from "../features/social/social-client";
import * as social from "../api/social-api";
import { setEmailAlerts as saveEmailAlerts } from "../api/settings-api";
import { loadApi, requireSessionCookie } from "../lib/api.server";
import { useRoom } from "../lib/realtime";
import { readSession } from "../lib/session-keys";
import { errorText } from "../lib/error-text";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

/** §3 local key remembering the Messages page tab. */
const TAB_KEY = "lastMessagePageTab";
type Tab = "guestbook" | "notification";

export async function loader({ request, context }: Route.LoaderArgs) {
  const memberId = requireSessionCookie(request)["X-Member-ID"];
  const opts = { private: true } as const;
  const [unread, chats, guestbook, notifications, settings] = await Promise.all([
    loadApi<{ count: number }>(context, request, "/core/notifications/unread-count", opts),
    loadApi<UnreadCounts>(context, request, "/sns/chatroom/unread-counts", opts),
    loadApi<Page<GuestbookEntry> & GuestbookCounts>(context, request, `/core/guestbooks/${memberId}?pageSize=30`, opts),
    loadApi<Page<NotificationView>>(context, request, "/core/notifications?pageSize=30", opts),
    loadApi<SocialSettings>(context, request, "/core/social-settings", opts),
  ]);
  return { unread: unread.count, unreadChat: chats.total, guestbook, notifications, settings };
}

/** §2 Messages page: Guestbook and Notification tabs (remembered), New marker, e-mail alerts, clear-all. */
export default function Messages({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("social");
  const p = params.projectCode.toLowerCase();
  const toast = useToast();
  const [tab, setTab] = useState<Tab>("guestbook");
  const [entries, setEntries] = useState(loaderData.guestbook.items);
  const [notices, setNotices] = useState(loaderData.notifications.items);
  const [unread, setUnread] = useState(loaderData.unread);
  const [emailAlerts, setEmailAlerts] = useState(loaderData.settings.emailAlerts);
  // §2: the red New marker follows unread chatroom messages, live from the member's inbox stream.
  const [unreadChat, setUnreadChat] = useState(loaderData.unreadChat);
  useEffect(() => setUnreadChat(loaderData.unreadChat), [loaderData.unreadChat]);
  const [session, setSession] = useState<ReturnType<typeof readSession>>(null);
  useEffect(() => setSession(readSession()), []);
  useRoom({
    party: "member-inbox",
    room: `${params.projectCode.toUpperCase()}~${session?.memberId ?? ""}`,
    enabled: Boolean(session),
    onEvent: (event: ServerEvent) => {
      if (event.type === "inbox.counts") setUnreadChat(event.counts.total);
    },
  });

  useEffect(() => {
    const stored = localStorage.getItem(TAB_KEY);
    if (stored === "guestbook" || stored === "notification") setTab(stored);
  }, []);

  // Opening the Notification tab reads them: the New marker clears.
  useEffect(() => {
    if (tab !== "notification" || unread === 0) return;
    void social.readNotifications().then((body) => {
      if (isOk(body)) setUnread(body.info.unread);
    });
  }, [tab, unread]);

  function changeTab(value: string) {
    const next = value === "notification" ? "notification" : "guestbook";
    setTab(next);
    localStorage.setItem(TAB_KEY, next);
  }

  async function changeAlerts(checked: boolean) {
    setEmailAlerts(checked);
    const body = await saveEmailAlerts(checked);
    if (!isOk(body)) {
      setEmailAlerts(!checked);
      toast(errorText(t, body), "error");
    }
  }

  // §2 two-step clear-all-notifications.
  const clearAll = useTwoStep(async () => {
    const body = await social.clearNotifications();
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setNotices([]);
    setUnread(0);
    toast(t("messages.cleared"), "delete");
  });

  return (
    <main className="page stack">
      <h1>{t("messages.title")}</h1>
      <div className="messages-toolbar">
        <Link className="button messages-chats" to={`/${p}/notification`}>
          {t("notify:messages.chats")}
          {unreadChat > 0 && (
            <>
              <span className="new-marker">{t("messages.new")}</span>
              <span className="visually-hidden"> {t("notify:messages.newLabel", { count: unreadChat })}</span>
            </>
          )}
        </Link>
        <label className="switch-label" htmlFor="email-alerts">
          <Switch id="email-alerts" checked={emailAlerts} onCheckedChange={(checked) => void changeAlerts(checked)} />
          {t("messages.emailAlerts")}
        </label>
        <PushSwitch />
      </div>
      <Tabs.Root value={tab} onValueChange={changeTab}>
        <Tabs.List className="tabs-list" aria-label={t("messages.tabs")}>
          <Tabs.Trigger className="tab" value="guestbook">
            {t("messages.guestbook")}
            {loaderData.guestbook.unread > 0 && <span className="visually-hidden"> {t("messages.unread", { count: loaderData.guestbook.unread })}</span>}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="notification">
            {t("messages.notification")}
            {/* Unread notifications are counted here; the New marker belongs to unread messages (§2). */}
            {unread > 0 && (
              <>
                <span className="badge notification-count" aria-hidden="true">
                  {unread}
                </span>
                <span className="visually-hidden"> {t("messages.unread", { count: unread })}</span>
              </>
            )}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="guestbook" className="stack">
          <GuestbookEntries entries={entries} empty={t("messages.emptyGuestbook")} onDeleted={(id) => setEntries((list) => list.filter((e) => e.idGuestbook !== id))} />
          <Link to={`/${p}/guestbook`}>{t("messages.openGuestbook")}</Link>
        </Tabs.Content>
        <Tabs.Content value="notification" className="stack">
          <div className="row">
            <button type="button" className={`button button-danger${clearAll.armed ? " block-armed" : ""}`} onClick={() => void clearAll.tap()} disabled={notices.length === 0}>
              {clearAll.armed ? t("messages.confirmClear") : t("messages.clearAll")}
            </button>
          </div>
          <NotificationItems items={notices} empty={t("messages.emptyNotifications")} />
          <FilteredNotices />
        </Tabs.Content>
      </Tabs.Root>
    </main>
  );
}
