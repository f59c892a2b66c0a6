import { isOk } from "../../../worker/contract/envelope";
import * as push from "../../api/notifications-api";
import { readSession } from "../../lib/session-keys";

/**
 * Web push on this device (README Decisions "Push that reaches a closed app"). `enableNotification` (§3 local key)
 * is the member's choice; the browser's permission and this device's subscription follow it. The service worker
 * (/sw.js, scope /) shows the push and opens the page on click.
 */
export const ENABLE_KEY = "enableNotification";

export const pushSupported = () => typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

export const pushWanted = () => localStorage.getItem(ENABLE_KEY) === "true";

/** Registers the service worker (after login, from the member shell); harmless when already registered. */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    return await navigator.serviceWorker.ready;
  } catch (error) {
    // §145: failures are only logged.
    console.info("service worker not registered", error instanceof Error ? error.name : error);
    return null;
  }
}

const keyBytes = (base64url: string) => Uint8Array.from(atob(base64url.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/** Subscribes this device and hands the subscription to the server through the §7 source update. */
async function subscribe(registration: ServiceWorkerRegistration): Promise<boolean> {
  const session = readSession();
  if (!session) return false;
  const key = await push.vapidKey();
  if (!isOk(key)) return false;
  try {
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.info.publicKey) }));
    const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    const body = await push.addPushSource(session.memberId, { endpoint: json.endpoint, keys: json.keys });
    return isOk(body) && body.info.subscribed === true;
  } catch (error) {
    console.info("push subscription failed", error instanceof Error ? error.name : error);
    return false;
  }
}

/** The clear control: asks for permission (denied is only logged, §145) and subscribes. Answers the outcome. */
export async function enablePush(): Promise<NotificationPermission | "unsupported"> {
  if (!pushSupported()) return "unsupported";
  const permission = await Notification.requestPermission();
  localStorage.setItem(ENABLE_KEY, String(permission === "granted"));
  if (permission !== "granted") {
    console.info("notification permission", permission);
    return permission;
  }
  const registration = await registerServiceWorker();
  if (registration) await subscribe(registration);
  return permission;
}

/** Off: forgets the choice, removes this device on the server and unsubscribes in the browser. */
export async function disablePush() {
  localStorage.setItem(ENABLE_KEY, "false");
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  const session = readSession();
  if (subscription && session) {
    await push.removePushSource(session.memberId, subscription.endpoint);
    await subscription.unsubscribe().catch(() => false);
  }
}

/** After login (member shell): the worker is registered and, when the member chose push, this session's device too. */
export async function resumePush() {
  const registration = await registerServiceWorker();
  if (registration && pushWanted() && Notification.permission === "granted") await subscribe(registration);
}
