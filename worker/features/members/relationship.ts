import { sql, type SQLWrapper } from "drizzle-orm";
import { getDb } from "../../db/client";
import type { FriendStatus, Relationship } from "../../contract/social";
import { blocking, liveBlockColumn, liveMuteEnd, muting } from "./visibility";

export type { Relationship } from "../../contract/social";

export const NO_RELATIONSHIP: Relationship = {
  following: false,
  followedBy: false,
  favourite: false,
  friendStatus: "none",
  blocking: null,
  blockedBy: false,
  muted: null,
  followRequested: false,
};

type Row = {
  blockId: number | null;
  blockExpires: number | null;
  blockedBy: number;
  muteExpires: number | null;
  muted: number;
  following: number;
  followedBy: number;
  favourite: number;
  friendOut: string | null;
  friendIn: string | null;
  followRequested?: number;
};

/**
 * Relationship of `viewerId` to the target as scalar subqueries, to select alongside the target's row (the
 * target may be a column of the outer query) or on their own: blocks and mutes (live ones only, so timed
 * blocks lift themselves), follows both ways, favourite and friend status. Every lookup is a pair index.
 */
export function relationshipColumns(viewerId: string, target: SQLWrapper | string, at = Date.now()) {
  const t = typeof target === "string" ? sql`${target}` : target;
  return {
    blockId: sql<number | null>`${liveBlockColumn("id_block", viewerId, t, at)}`,
    blockExpires: sql<number | null>`${liveBlockColumn("expires_at", viewerId, t, at)}`,
    blockedBy: sql<number>`${blocking(t, viewerId, at)}`,
    muteExpires: sql<number | null>`${liveMuteEnd(viewerId, t, at)}`,
    muted: sql<number>`${muting(viewerId, t, at)}`,
    following: sql<number>`(select count(*) from follows where member_id = ${viewerId} and target_member_id = ${t})`,
    followedBy: sql<number>`(select count(*) from follows where member_id = ${t} and target_member_id = ${viewerId})`,
    favourite: sql<number>`(select count(*) from favourites where member_id = ${viewerId} and target_member_id = ${t})`,
    friendOut: sql<string | null>`(select status from friendships where requester_id = ${viewerId} and addressee_id = ${t})`,
    friendIn: sql<string | null>`(select status from friendships where requester_id = ${t} and addressee_id = ${viewerId})`,
    followRequested: sql<number>`(select count(*) from follow_requests where member_id = ${viewerId} and target_member_id = ${t})`,
  };
}

/** Relationship of `viewerId` to `targetId` in ONE query. */
export async function relationshipTo(env: Env, viewerId: string | null | undefined, targetId: string): Promise<Relationship> {
  if (!viewerId || viewerId === targetId) return NO_RELATIONSHIP;
  const rows = await getDb(env).select(relationshipColumns(viewerId, targetId)).from(sql`(select 1)`);
  return toRelationship(rows[0]);
}

export function toRelationship(row: Row | undefined): Relationship {
  const toIso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
  const blocking = row?.blockId ? { idBlock: row.blockId, expiresAt: toIso(row.blockExpires) } : null;
  const blockedBy = (row?.blockedBy ?? 0) > 0;
  // While a block is live neither side sees the other's graph edges (they stay stored for when it lifts).
  const hidden = Boolean(blocking) || blockedBy;
  return {
    following: !hidden && (row?.following ?? 0) > 0,
    followedBy: !hidden && (row?.followedBy ?? 0) > 0,
    favourite: !hidden && (row?.favourite ?? 0) > 0,
    friendStatus: hidden ? "none" : friendStatusOf(row?.friendOut ?? null, row?.friendIn ?? null),
    blocking,
    blockedBy,
    muted: row?.muted ? { expiresAt: toIso(row.muteExpires) } : null,
    followRequested: !hidden && (row?.followRequested ?? 0) > 0,
  };
}

export function friendStatusOf(outgoing: string | null, incoming: string | null): FriendStatus {
  if (outgoing === "accepted" || incoming === "accepted") return "friends";
  if (outgoing === "requested") return "requested";
  if (incoming === "requested") return "incoming";
  return "none";
}
