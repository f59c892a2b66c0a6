import type { E2eOwnDevice, PublicKeysAnswer } from "../../worker/contract/e2e.constants";
import type { E2eKeysStored, E2eLinkRequest, E2eLinkStarted, E2eWrappedKey, E2eWrappedThreadKey } from "../../worker/contract/e2e-link.constants";
import { api } from "../lib/api";

/**
 * The end-to-end device endpoints (README Decisions "Everything private is encrypted", "Linking a second device"), each
 * with its path, method and answer type written once. Keys pages go newest first; `before` asks for older ones.
 */

const olderThan = (before?: number) => (before ? `?before=${before}` : "");

export const ownDevices = () => api<E2eOwnDevice[]>("/private/sns/e2e-devices");
export const removeDevice = (deviceId: string) => api(`/private/sns/e2e-devices/${deviceId}`, { method: "DELETE" });
export const publicKeys = (memberNo: string) => api<PublicKeysAnswer>(`/private/sns/public-keys/${memberNo}`);

export const messageKeys = (deviceId: string, before?: number) => api<E2eWrappedKey[]>(`/private/sns/e2e-devices/${deviceId}/message-keys${olderThan(before)}`);
export const linkedKeys = (deviceId: string, before?: number) => api<E2eWrappedKey[]>(`/private/sns/e2e-devices/${deviceId}/linked-keys${olderThan(before)}`);
export const storeLinkedKeys = (deviceId: string, keys: E2eWrappedKey[]) =>
  api<E2eKeysStored>(`/private/sns/e2e-devices/${deviceId}/linked-keys`, { method: "POST", body: { keys } });
export const threadKeys = (deviceId: string, before?: number) => api<E2eWrappedThreadKey[]>(`/private/sns/e2e-devices/${deviceId}/thread-keys${olderThan(before)}`);
export const linkedThreadKeys = (deviceId: string, before?: number) =>
  api<E2eWrappedThreadKey[]>(`/private/sns/e2e-devices/${deviceId}/linked-thread-keys${olderThan(before)}`);
export const storeLinkedThreadKeys = (deviceId: string, keys: E2eWrappedThreadKey[]) =>
  api<E2eKeysStored>(`/private/sns/e2e-devices/${deviceId}/linked-thread-keys`, { method: "POST", body: { keys } });

export const requestLink = (deviceId: string, tag: string) => api<E2eLinkStarted>(`/private/sns/e2e-links/${deviceId}`, { method: "PUT", body: { tag } });
export const linkRequests = () => api<E2eLinkRequest[]>("/private/sns/e2e-links");
export const endLink = (deviceId: string) => api(`/private/sns/e2e-links/${deviceId}`, { method: "DELETE" });
