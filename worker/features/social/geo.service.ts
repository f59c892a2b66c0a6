import { and, eq, sql } from "drizzle-orm";
import ngeohash from "ngeohash";
import { getDb } from "../../db/client";
import { profiles } from "../../db/schema";
import type { GeolocationInfo, NearbyAnswer, NearbyItem } from "../../contract/social";
import { AppError } from "../../lib/app-error";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import type { SessionMember } from "../../lib/session-member";
import { between, cellOf } from "../members/position-cell";
import { notVisitorToSql } from "../members/profile-access";
import { notBlockedWith, notMutedBy } from "../members/visibility";

/** Stored precision: 9 characters ≈ 5 m cells (the member's own exact position, never shown to others). */
export const GEOHASH_PRECISION = 9;
/** Search starts with ≈ 5 km cells and widens to continental ones while too few members are found. */
const START_PRECISION = 5;
const ROWS_PER_ROUND = 300;

export async function getGeolocation(env: Env, member: SessionMember): Promise<GeolocationInfo> {
  const row = await getDb(env)
    .select({ latitude: profiles.latitude, longitude: profiles.longitude, geohash: profiles.geohash, showPosition: profiles.showPosition })
    .from(profiles)
    .where(eq(profiles.memberId, member.memberId))
    .get();
  return { latitude: row?.latitude ?? null, longitude: row?.longitude ?? null, geohash: row?.geohash ?? null, showPosition: row?.showPosition ?? false };
}

/** The geohash is computed here; a geohash sent by the client must agree with the coordinates (prefix). */
export async function putGeolocation(env: Env, member: SessionMember, input: { latitude: number; longitude: number; geohash?: string }): Promise<GeolocationInfo> {
  const geohash = ngeohash.encode(input.latitude, input.longitude, GEOHASH_PRECISION);
  if (input.geohash && !geohash.startsWith(input.geohash.slice(0, GEOHASH_PRECISION))) throw new AppError("geohashMismatch");
  const [row] = await getDb(env)
    .update(profiles)
    .set({ latitude: input.latitude, longitude: input.longitude, geohash, updatedAt: Date.now() })
    .where(and(eq(profiles.memberId, member.memberId), eq(profiles.projectCode, member.projectCode)))
    .returning({ showPosition: profiles.showPosition });
  return { latitude: input.latitude, longitude: input.longitude, geohash, showPosition: row?.showPosition ?? false };
}

/** Forgets the position and stops showing it: the member disappears from nearby at once. */
export async function clearGeolocation(env: Env, member: SessionMember): Promise<GeolocationInfo> {
  await getDb(env)
    .update(profiles)
    .set({ latitude: null, longitude: null, geohash: null, showPosition: false, updatedAt: Date.now() })
    .where(eq(profiles.memberId, member.memberId));
  return { latitude: null, longitude: null, geohash: null, showPosition: false };
}

type Candidate = { memberId: string; latitude: number; longitude: number };

/**
 * §3 Nearby items. Candidates come from the viewer's geohash cell and its 8 neighbours, each read as a
 * range on the (project_code, geohash) index; the cells widen one precision level at a time until enough
 * members are found. Only members who opted in appear, never blocked pairs (either way), muted members, closed
 * or suspended profiles, nor members who approve followers to those they have not accepted (profile-access.ts).
 * Others are answered as cells (README "Cells, not positions"): the cell centre, whole kilometres and a compass
 * point between the viewer's cell and theirs, ranked by that distance (rank 1 = nearest, ties in a fixed order), so
 * nothing in the answer, its order included, is finer than a cell.
 */
export async function nearby(env: Env, projectCode: string, member: SessionMember, pageSize: number): Promise<NearbyAnswer> {
  const origin = await getGeolocation(env, member);
  const from = cellOf(origin.latitude, origin.longitude);
  if (!from || !origin.geohash) throw new AppError("locationMissing");
  const at = Date.now();
  const found = new Map<string, Candidate>();
  for (let precision = START_PRECISION; precision >= 1; precision--) {
    const cell = origin.geohash.slice(0, precision);
    const { rows } = await candidatesIn(env, projectCode, member.memberId, [...new Set([cell, ...ngeohash.neighbors(cell)])], at);
    for (const row of rows) found.set(row.memberId, row);
    if (found.size >= pageSize) break;
  }
  const ranked = [...found.values()]
    .map((c) => ({ memberId: c.memberId, cell: cellOf(c.latitude, c.longitude)! }))
    .filter((c) => c.cell)
    .map((c) => ({ ...c, ...between(from, c.cell) }))
    .sort((a, b) => a.distanceKm - b.distanceKm || (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0))
    .slice(0, pageSize);
  const summaries = await profileSummaries(env, projectCode, ranked.map((r) => r.memberId), await viewerFor(env, member.memberId));
  const items: NearbyItem[] = [];
  for (const r of ranked) {
    const profile = summaries.get(r.memberId);
    if (profile) items.push({ profile, latitude: r.cell.latitude, longitude: r.cell.longitude, rank: items.length + 1, distanceKm: r.distanceKm, bearing: r.bearing });
  }
  return { items, origin };
}

/**
 * Members located in the given geohash cells: the cells are a VALUES table of [lo, hi) ranges joined to
 * profiles on (project_code, geohash), so SQLite seeks one index range per cell instead of scanning the
 * tenant. Returns D1's `rows_read` so tests can hold the cost down.
 */
export async function candidatesIn(env: Env, projectCode: string, viewerId: string, cells: string[], at: number) {
  const ranges = sql.join(cells.map((c) => sql`(${c}, ${`${c}~`})`), sql`, `);
  const member = sql.raw(`p.member_id`);
  const result = await getDb(env).run(sql`with cells(lo, hi) as (values ${ranges})
     select p.member_id as memberId, p.latitude as latitude, p.longitude as longitude
     from cells c cross join profiles p indexed by profiles_project_geohash
     where p.project_code = ${projectCode} and p.geohash >= c.lo and p.geohash < c.hi
       and p.member_id <> ${viewerId} and p.show_position = 1 and p.latitude is not null and p.longitude is not null
       and p.closed = 0 and p.blocked = 0
       and ${notBlockedWith(viewerId, member, at)} and ${notMutedBy(viewerId, member, at)}
       and ${notVisitorToSql(viewerId, member, sql.raw(`p.approve_followers`))}
     limit ${sql.raw(String(ROWS_PER_ROUND))}`);
  return { rows: result.results as Candidate[], rowsRead: result.meta.rows_read };
}
