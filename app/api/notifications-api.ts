import type { PushSourceUpdated, VapidKey } from "../../worker/contract/notifications";
import { api } from "../lib/api";

/** The web-push endpoints (§7 sns notifications source), each with its path, method and answer type written once. */

type PushSubscriptionKeys = { endpoint: string; keys: { p256dh: string; auth: string } };

export const vapidKey = () => api<VapidKey>("/private/sns/notifications/vapid-key");
export const addPushSource = (memberId: string, subscription: PushSubscriptionKeys) =>
  api<PushSourceUpdated>(`/private/sns/notifications/source/${memberId}`, {
    method: "PUT",
    body: { sourceKey: subscription.endpoint, subscription },
  });
export const removePushSource = (memberId: string, endpoint: string) =>
  api(`/private/sns/notifications/source/${memberId}`, { method: "DELETE", body: { endpoint } });
