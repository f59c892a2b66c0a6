import type { ContactSettings } from "../../worker/contract/chat";
import type { ConnectionsSettings, ConnectionsVisibility } from "../../worker/contract/connections.constants";
import type { MutedWord } from "../../worker/contract/muted-words.constants";
import type { QuietHours } from "../../worker/contract/quiet-hours";
import type { RequestsFilters } from "../../worker/contract/requests-filters.constants";
import type { OwnProfile } from "../../worker/contract/profiles";
import type { FollowApproval, SafetyDuration, SocialSettings } from "../../worker/contract/social";
import type { StrangerMedia, StrangerMediaSetting } from "../../worker/contract/stranger-media.constants";
import { api } from "../lib/api";

/**
 * The endpoints the Settings sections call, each with its path, method and answer type written once. Most are
 * per member (`memberId` is the signed-in member's; the paths carry it, §7): read with GET, change with PUT.
 */

const member = (memberId: string) => encodeURIComponent(memberId);

export const changePassword = (memberId: string, oldPassword: string, newPassword: string) =>
  api(`/private/core/members/password/${member(memberId)}`, { method: "PUT", body: { oldPassword, newPassword } });

/** The two profile switches Settings also shows (the same PATCH as My profile, answering the whole own profile). */
export const patchProfileSwitches = (memberId: string, patch: { safeMode?: boolean; muted?: boolean }) =>
  api<OwnProfile>(`/private/core/profiles/${member(memberId)}`, { method: "PATCH", body: patch });
export const setEmailAlerts = (emailAlerts: boolean) => api<SocialSettings>("/private/core/social-settings", { method: "PUT", body: { emailAlerts } });

export const quietHours = (memberId: string) => api<QuietHours>(`/private/sns/notifications/quiet-hours/${member(memberId)}`);
export const saveQuietHours = (memberId: string, next: QuietHours) =>
  api<QuietHours>(`/private/sns/notifications/quiet-hours/${member(memberId)}`, { method: "PUT", body: next });

export const mutedWords = () => api<MutedWord[]>("/private/core/muted-words");
export const addMutedWord = (phrase: string, duration: SafetyDuration) => api<MutedWord>("/private/core/muted-words", { body: { phrase, duration } });
export const removeMutedWord = (idMutedWord: number) => api(`/private/core/muted-words/${idMutedWord}`, { method: "DELETE" });

export const requestsFilters = () => api<RequestsFilters>("/private/sns/requests-filters");
export const saveRequestsFilters = (draft: RequestsFilters) => api<RequestsFilters>("/private/sns/requests-filters", { method: "PUT", body: draft });

export const saveContactSettings = (patch: Partial<ContactSettings>) => api<ContactSettings>("/private/sns/chat-settings", { method: "PUT", body: patch });

export const connectionsVisibility = (memberId: string) => api<ConnectionsSettings>(`/private/core/connections-visibility/${member(memberId)}`);
export const saveConnectionsVisibility = (memberId: string, connectionsVisibility: ConnectionsVisibility) =>
  api<ConnectionsSettings>(`/private/core/connections-visibility/${member(memberId)}`, { method: "PUT", body: { connectionsVisibility } });

export const followApproval = (memberId: string) => api<FollowApproval>(`/private/core/follow-approval/${member(memberId)}`);
export const saveFollowApproval = (memberId: string, approveFollowers: boolean) =>
  api<FollowApproval>(`/private/core/follow-approval/${member(memberId)}`, { method: "PUT", body: { approveFollowers } });

export const strangerMedia = (memberId: string) => api<StrangerMediaSetting>(`/private/core/stranger-media/${member(memberId)}`);
export const saveStrangerMedia = (memberId: string, next: StrangerMedia) =>
  api<StrangerMediaSetting>(`/private/core/stranger-media/${member(memberId)}`, { method: "PUT", body: { strangerMedia: next } });
