import type { CreatorProfile, CreatorProfileBody } from "../../worker/contract/creator";
import type { DnaReading } from "../../worker/contract/dna";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import type { Banner, Character, CharacterUsersPage, OwnProfile } from "../../worker/contract/profiles";
import { api } from "../lib/api";
import { readSession } from "../lib/session-keys";

/**
 * The profile endpoints pages call (§7 core profiles, banners, characters) each with its path, method
 * and answer type written once. `memberId` is the signed-in member's (the paths carry it, §7).
 */

export const ownProfile = (memberId: string) => api<OwnProfile>(`/private/core/profiles/${memberId}`);
/** PATCH the own profile; `coordinates` is the §5 "lat,lng or number" input the server parses. */
export const updateProfile = (memberId: string, patch: Partial<OwnProfile> & { coordinates?: string; language?: string }) =>
  api<OwnProfile>(`/private/core/profiles/${memberId}`, { method: "PATCH", body: patch });

export const addBanner = (memberId: string, body: { image: string; pickable: boolean; width: number; height: number }) =>
  api<Banner>(`/private/core/banners/${memberId}`, { body });
export const deleteBanner = (memberId: string, idBanner: number) => api(`/private/core/banners/${idBanner}/${memberId}`, { method: "DELETE" });

/** Check or uncheck one of the member's characters; answers the whole list. */
export const setCharacter = (memberId: string, idCharacter: number, checked: boolean) =>
  checked
    ? api<Character[]>(`/private/sns/characters/${memberId}`, { body: { idCharacter } })
    : api<Character[]>(`/private/sns/characters/${memberId}/${idCharacter}`, { method: "DELETE" });
/** Members who checked a character (a visitor reads the public path). */
export const characterUsers = (projectCode: string, idCharacter: number) =>
  api<CharacterUsersPage>(
    `/${readSession() ? "private" : "public"}/sns/characters/${projectCode.toUpperCase()}/${idCharacter}/users?pageSize=20`,
  );
/** One page of a character's members (the market's character tags). */
export const characterUsersPage = (projectCode: string, idCharacter: number, page: number, pageSize: number) =>
  api<CharacterUsersPage>(`/private/sns/characters/${projectCode.toUpperCase()}/${idCharacter}/users?page=${page}&pageSize=${pageSize}`);
/** Members of a gender, for the market groups. */
export const multiGender = (projectCode: string, gender: number, pageSize: number) =>
  api<ProfileSummary[]>(`/private/core/profiles/${projectCode.toUpperCase()}/multi-gender/${gender}?pageSize=${pageSize}`);

/** How two members match (README Decisions "DNA"). */
export const dna = (projectCode: string, memberNo: string) => api<DnaReading>(`/private/family/dna/${projectCode.toUpperCase()}/${memberNo}`);

/** A member's creator profile, or null (a visitor reads the public path). */
export const creatorProfile = (projectCode: string, memberNo: string) =>
  api<CreatorProfile | null>(`/${readSession() ? "private" : "public"}/core/creator-profiles/${projectCode.toUpperCase()}/${memberNo}`);
export const saveCreatorProfile = (memberId: string, body: CreatorProfileBody) => api<CreatorProfile>(`/private/core/creator-profiles/${memberId}`, { method: "PUT", body });
