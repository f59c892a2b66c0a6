import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import type { UnreadCounts } from "../../../worker/contract/chat";
import type { ServerEvent } from "../../../worker/contract/realtime";
import { backgroundApi, useRoom, type SocketStatus } from "../../lib/realtime";
import { readSession } from "../../lib/session-keys";
import { whenSettled } from "../../lib/when-settled";
import { e2eDevice } from "../e2e/late-device";

const SEEN_KEY = "lastSeenNotificationId";
/** The app-wide streams connect once a page has been open this long (a page left at once opens no sockets). */
const SHELL_STREAM_DELAY = 1200;

/** A short two-tone chime for desktop notifications (§9: with a sound), made with WebAudio: no asset. */
function chime() {
  try {
    const audio = new AudioContext();
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, audio.currentTime + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + i * 0.15 + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + i * 0.15);
      osc.stop(audio.currentTime + i * 0.15 + 0.3);
    }
  } catch (error) {
    console.info("chime unavailable", error);
  }
}

export type InboxState = { dots: { social: boolean; message: boolean }; status: SocketStatus | "off" };

/**
 * The member's inbox stream, once per shell: drives the bottom-nav dots (green = unread chat, orange = a new
 * notification until the message page is opened), desktop notifications (skipped when the profile is muted)
 * and publishes this browser's public key for encrypted messages.
 */
export function useInboxStream(projectCode: string): InboxState {
  const { t } = useTranslation("chat");
  const location = useLocation();
  const [session, setSession] = useState<ReturnType<typeof readSession>>(null);
  const [counts, setCounts] = useState<UnreadCounts | null>(null);
  const [latest, setLatest] = useState(0);
  const [seen, setSeen] = useState(0);
  const muted = useRef(true);

  useEffect(() => {
    const current = readSession();
    setSession(current);
    setSeen(Number(localStorage.getItem(SEEN_KEY) ?? 0));
    if (!current) return;
    // The key pair (RSA-2048 on a browser's first visit) and its publishing wait until the page has settled:
    // nothing on screen needs them, and the crypto code loads only then.
    const publish = () =>
      void e2eDevice
        .fetch()
        .then(({ ensureDeviceRegistered }) => ensureDeviceRegistered(current.memberId))
        .catch((error) => console.info("key publish failed", error));
    const cancelPublish = whenSettled(publish, SHELL_STREAM_DELAY);
    void backgroundApi<{ muted: boolean }>(`/private/core/profiles/${current.memberId}`).then((body) => {
      muted.current = "info" in body ? Boolean(body.info.muted) : false;
    });
    return cancelPublish;
  }, []);

  const onMessagePage = /\/message\/?$/.test(location.pathname);
  useEffect(() => {
    // §2: the orange dot clears when the message page is opened.
    if (onMessagePage && latest > seen) {
      localStorage.setItem(SEEN_KEY, String(latest));
      setSeen(latest);
    }
  }, [onMessagePage, latest, seen]);

  const { status } = useRoom({
    party: "member-inbox",
    room: `${projectCode.toUpperCase()}~${session?.memberId ?? ""}`,
    enabled: Boolean(session),
    delayMs: SHELL_STREAM_DELAY,
    onEvent: (event: ServerEvent) => {
      if (event.type === "inbox.counts") {
        setCounts(event.counts);
        setLatest(event.latestNotificationId);
      }
      if (event.type === "notification") {
        setLatest((n) => Math.max(n, event.item.idNotification));
        const wanted = localStorage.getItem("enableNotification") === "true" && "Notification" in window && Notification.permission === "granted";
        if (wanted && !muted.current) {
          new Notification(t("desktopTitle"), { body: t(`notice.${event.item.type}`, { defaultValue: t("notice.generic") }), tag: `velvet-${event.item.idNotification}` });
          chime();
        }
      }
    },
  });

  // §4 Presence: online while any page of the app is open (connect signal), offline on page unload.
  const presence = useRoom({ party: "presence", room: `${projectCode.toUpperCase()}~presence`, enabled: Boolean(session), delayMs: SHELL_STREAM_DELAY, onEvent: () => {} });
  const sendPresence = presence.send;
  useEffect(() => {
    const leave = () => sendPresence({ type: "presence.leave" });
    window.addEventListener("pagehide", leave);
    return () => window.removeEventListener("pagehide", leave);
  }, [sendPresence]);

  // The same object while neither dot changes: the navigation (memo) then skips the shell's other updates.
  const social = Boolean(counts && counts.total + counts.requests > 0);
  const message = latest > seen;
  const dots = useMemo(() => ({ social, message }), [social, message]);
  return { dots, status: session ? status : "off" };
}

/** Shown while the inbox socket is down; partysocket keeps reconnecting with fresh tickets. */
export function ConnectionBanner({ status }: { status: InboxState["status"] }) {
  const { t } = useTranslation("chat");
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (status !== "closed") return setShow(false);
    // A brief blip is not worth a banner.
    const timer = setTimeout(() => setShow(true), 1500);
    return () => clearTimeout(timer);
  }, [status]);
  if (!show) return null;
  return (
    <div className="connection-banner" role="status">
      {t("offlineBanner")}
    </div>
  );
}
