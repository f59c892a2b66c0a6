// One page of member cards for the social lists (follows, friends, favourites, blocks, mutes, follow requests): cursor and profile summaries (§7 Social).
import type { ProfileSummary } from "../../contract/profile-summary";
import type { Page } from "../../contract/social";
import type { SessionMember } from "../../lib/session-member";
import { profileSummaries, viewerFor } from "../members/profile-summary";

export async function pageOf<R extends { otherId: string }, T>(
  env: Env,
  member: SessionMember,
  rows: R[],
  pageSize: number,
  cursor: (r: R) => number,
  make: (r: R, profile: ProfileSummary) => T,
): Promise<Page<T>> {
  const slice = rows.slice(0, pageSize);
  const summaries = await profileSummaries(env, member.projectCode, slice.map((r) => r.otherId), await viewerFor(env, member.memberId));
  const items = slice.flatMap((r) => {
    const profile = summaries.get(r.otherId);
    return profile ? [make(r, profile)] : [];
  });
  return { items, next: rows.length > pageSize ? cursor(slice[slice.length - 1]!) : null };
}
