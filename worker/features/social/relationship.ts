import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";

/** Viewer relationship carried by every profile the API returns to a member (house style). */
export type Relationship = {
  following: boolean;
  followedBy: boolean;
  favourite: boolean;
  friendStatus: "none" | "requested" | "incoming" | "friends";
  blocking: { idBlock: number; expiresAt: string | null } | null;
  blockedBy: boolean;
  muted: { expiresAt: string | null } | null;
};

export const NO_RELATIONSHIP: Relationship = {
  following: false,
  followedBy: false,
  favourite: false,
  friendStatus: "none",
  blocking: null,
  blockedBy: false,
  muted: null,
};

/**
 * Relationship of `viewerId` to `targetId`. Blocks and mutes are read here; the social feature
 * (issue 4) adds follows, favourites and friends to the same query.
 */
export async function relationshipTo(env: Env, viewerId: string | null | undefined, targetId: string): Promise<Relationship> {
  if (!viewerId || viewerId === targetId) return NO_RELATIONSHIP;
  const at = Date.now();
  const row = await getDb(env).get<{ blockId: number | null; blockExpires: number | null; blockedBy: number; muteExpires: number | null; muted: number }>(sql`
    select
      (select id_block from blocks where member_id = ${viewerId} and target_member_id = ${targetId} and (expires_at is null or expires_at > ${at})) as blockId,
      (select expires_at from blocks where member_id = ${viewerId} and target_member_id = ${targetId} and (expires_at is null or expires_at > ${at})) as blockExpires,
      (select count(*) from blocks where member_id = ${targetId} and target_member_id = ${viewerId} and (expires_at is null or expires_at > ${at})) as blockedBy,
      (select expires_at from mutes where member_id = ${viewerId} and target_member_id = ${targetId} and (expires_at is null or expires_at > ${at})) as muteExpires,
      (select count(*) from mutes where member_id = ${viewerId} and target_member_id = ${targetId} and (expires_at is null or expires_at > ${at})) as muted`);
  const toIso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
  return {
    ...NO_RELATIONSHIP,
    blocking: row?.blockId ? { idBlock: row.blockId, expiresAt: toIso(row.blockExpires) } : null,
    blockedBy: (row?.blockedBy ?? 0) > 0,
    muted: row?.muted ? { expiresAt: toIso(row.muteExpires) } : null,
  };
}
