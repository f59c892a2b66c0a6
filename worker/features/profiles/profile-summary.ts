import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { profiles } from "../../db/schema";
import type { ProfileSummary } from "../../contract/profile-summary";
import { iso } from "../../lib/time";

/** Columns to select for a ProfileSummary; spread into any drizzle select that joins `profiles`. */
export const profileSummaryColumns = {
  idProfile: profiles.idProfile,
  memberId: profiles.memberId,
  simpleCode: profiles.simpleCode,
  nickname: profiles.nickname,
  avator: profiles.avator,
  qualify: profiles.qualify,
  blur: profiles.blur,
  blocked: profiles.blocked,
  multiGender: profiles.multiGender,
  lookFor: profiles.lookFor,
  kycStatus: profiles.kycStatus,
  closed: profiles.closed,
  isRainbow: profiles.isRainbow,
  lastAccess: profiles.lastAccess,
};

type SummaryRow = {
  idProfile: number;
  memberId: string;
  simpleCode: string;
  nickname: string;
  avator: string;
  qualify: boolean;
  blur: boolean;
  blocked: boolean;
  multiGender: number | null;
  lookFor: number;
  kycStatus: number;
  closed: boolean;
  isRainbow: boolean;
  lastAccess: number | null;
};

/** Viewer context for avatar visibility (§6: members without a qualifying avatar cannot see others' avatars). */
export type Viewer = { memberId: string; canSeeAvatars: boolean } | null;

export function toProfileSummary(row: SummaryRow, viewer?: Viewer): ProfileSummary {
  const own = viewer?.memberId === row.memberId;
  const hideAvatar = viewer && !own && !viewer.canSeeAvatars;
  return {
    idProfile: row.idProfile,
    simpleCode: row.simpleCode,
    nickname: row.nickname,
    avator: hideAvatar ? "" : row.avator,
    qualify: row.qualify,
    blur: row.blur || Boolean(hideAvatar),
    blocked: row.blocked,
    multiGender: row.multiGender,
    lookFor: row.lookFor,
    kycStatus: row.kycStatus,
    closed: row.closed,
    isRainbow: row.isRainbow,
    lastAccess: iso(row.lastAccess),
  };
}

/** Summaries for many members in one query (never one query per card). */
export async function profileSummaries(env: Env, projectCode: string, memberIds: string[], viewer?: Viewer) {
  const unique = [...new Set(memberIds)];
  const map = new Map<string, ProfileSummary>();
  if (unique.length === 0) return map;
  const db = getDb(env);
  // D1 caps bound parameters per statement; chunk large sets.
  for (let i = 0; i < unique.length; i += 90) {
    const rows = await db
      .select(profileSummaryColumns)
      .from(profiles)
      // Unary `+` keeps SQLite from choosing a project_code index (which reads the whole tenant):
      // the lookup goes through profiles_member, reading one row per id.
      .where(and(sql`+${profiles.projectCode} = ${projectCode}`, inArray(profiles.memberId, unique.slice(i, i + 90))));
    for (const row of rows) map.set(row.memberId, toProfileSummary(row, viewer));
  }
  return map;
}

/** The viewer context for a member: whether their own avatar qualifies them to see others'. */
export async function viewerFor(env: Env, memberId: string | null | undefined): Promise<Viewer> {
  if (!memberId) return null;
  const row = await getDb(env)
    .select({ avator: profiles.avator, qualify: profiles.qualify })
    .from(profiles)
    .where(eq(profiles.memberId, memberId))
    .get();
  // §6/§8: without a qualifying avatar of their own, a member cannot see others' avatars.
  return { memberId, canSeeAvatars: Boolean(row?.avator && row.qualify) };
}
