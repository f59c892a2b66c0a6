import { and, eq } from "drizzle-orm";
import ngeohash from "ngeohash";
import { getDb } from "../../db/client";
import { profiles } from "../../db/schema";
import type { GeolocationInfo, NearbyItem } from "../../contract/social";
import { AppError } from "../../http/app-error";
import { profileSummaries, viewerFor } from "../profiles/profile-summary";
import type { SessionMember } from "../session/session.service";

/** Stored precision: 9 characters ≈ 5 m cells (the member's own exact position, never shown to others). */
export const GEOHASH_PRECISION = 9;
/** §9 earth radius. */
const EARTH_RADIUS_KM = 6371;
/** Others' positions are snapped to a 0.01° grid (≈ 1.1 km): enough for a map, not a doorstep. */
const COARSE_STEP = 0.01;
/** Search starts with ≈ 5 km cells and widens to continental ones while too few members are found. */
const START_PRECISION = 5;
const ROWS_PER_ROUND = 300;

export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export const coarse = (value: number) => Math.round(Math.round(value / COARSE_STEP) * COARSE_STEP * 100) / 100;

export async function getGeolocation(env: Env, member: SessionMember): Promise<GeolocationInfo> {
  const row = await getDb(env)
    .select({ latitude: profiles.latitude, longitude: profiles.longitude, geohash: profiles.geohash })
    .from(profiles)
    .where(eq(profiles.memberId, member.memberId))
    .get();
  return { latitude: row?.latitude ?? null, longitude: row?.longitude ?? null, geohash: row?.geohash ?? null };
}

/** The geohash is computed here; a geohash sent by the client must agree with the coordinates (prefix). */
export async function putGeolocation(env: Env, member: SessionMember, input: { latitude: number; longitude: number; geohash?: string }): Promise<GeolocationInfo> {
  const geohash = ngeohash.encode(input.latitude, input.longitude, GEOHASH_PRECISION);
  if (input.geohash && !geohash.startsWith(input.geohash.slice(0, GEOHASH_PRECISION))) throw new AppError("geohashMismatch");
  await getDb(env)
    .update(profiles)
    .set({ latitude: input.latitude, longitude: input.longitude, geohash, updatedAt: Date.now() })
    .where(and(eq(profiles.memberId, member.memberId), eq(profiles.projectCode, member.projectCode)));
  return { latitude: input.latitude, longitude: input.longitude, geohash };
}

/** Stops sharing: the member disappears from nearby at once. */
export async function clearGeolocation(env: Env, member: SessionMember): Promise<GeolocationInfo> {
  await getDb(env).update(profiles).set({ latitude: null, longitude: null, geohash: null, updatedAt: Date.now() }).where(eq(profiles.memberId, member.memberId));
  return { latitude: null, longitude: null, geohash: null };
}

type Candidate = { memberId: string; latitude: number; longitude: number };

/**
 * §3 Nearby items. Candidates come from the viewer's geohash cell and its 8 neighbours, each read as a
 * range on the (project_code, geohash) index; the cells widen one precision level at a time until enough
 * members are found. Ranked by distance (rank 1 = nearest). Members without a shared location never
 * appear, nor blocked pairs, muted members, closed or blocked profiles; others' positions are coarse.
 */
export async function nearby(env: Env, projectCode: string, member: SessionMember, pageSize: number): Promise<{ items: NearbyItem[]; origin: GeolocationInfo }> {
  const origin = await getGeolocation(env, member);
  if (origin.latitude == null || origin.longitude == null || !origin.geohash) throw new AppError("locationMissing");
  const me = { latitude: origin.latitude, longitude: origin.longitude };
  const at = Date.now();
  const found = new Map<string, Candidate>();
  for (let precision = START_PRECISION; precision >= 1; precision--) {
    const cell = origin.geohash.slice(0, precision);
    const { rows } = await candidatesIn(env, projectCode, member.memberId, [...new Set([cell, ...ngeohash.neighbors(cell)])], at);
    for (const row of rows) found.set(row.memberId, row);
    if (found.size >= pageSize) break;
  }
  const ranked = [...found.values()]
    .map((c) => ({ ...c, distance: distanceKm(me, c) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, pageSize);
  const summaries = await profileSummaries(env, projectCode, ranked.map((r) => r.memberId), await viewerFor(env, member.memberId));
  const items: NearbyItem[] = [];
  for (const r of ranked) {
    const profile = summaries.get(r.memberId);
    if (!profile) continue;
    const latitude = coarse(r.latitude);
    const longitude = coarse(r.longitude);
    items.push({ profile, latitude, longitude, rank: items.length + 1, distanceKm: Math.max(1, Math.round(distanceKm(me, { latitude, longitude }))) });
  }
  return { items, origin };
}

/**
 * Members located in the given geohash cells: the cells are a VALUES table of [lo, hi) ranges joined to
 * profiles on (project_code, geohash), so SQLite seeks one index range per cell instead of scanning the
 * tenant. Returns D1's `rows_read` so tests can hold the cost down.
 */
export async function candidatesIn(env: Env, projectCode: string, viewerId: string, cells: string[], at: number) {
  const values = cells.map((_, i) => `(?${4 + i * 2}, ?${5 + i * 2})`).join(", ");
  const result = await env.DB.prepare(
    `with cells(lo, hi) as (values ${values})
     select p.member_id as memberId, p.latitude as latitude, p.longitude as longitude
     from cells c cross join profiles p indexed by profiles_project_geohash
     where p.project_code = ?1 and p.geohash >= c.lo and p.geohash < c.hi
       and p.member_id <> ?2 and p.latitude is not null and p.longitude is not null and p.closed = 0 and p.blocked = 0
       and not exists (select 1 from blocks b where ((b.member_id = ?2 and b.target_member_id = p.member_id) or (b.member_id = p.member_id and b.target_member_id = ?2))
         and (b.expires_at is null or b.expires_at > ?3))
       and not exists (select 1 from mutes m where m.member_id = ?2 and m.target_member_id = p.member_id and (m.expires_at is null or m.expires_at > ?3))
     limit ${ROWS_PER_ROUND}`,
  )
    .bind(projectCode, viewerId, at, ...cells.flatMap((c) => [c, `${c}~`]))
    .all<Candidate>();
  return { rows: result.results, rowsRead: result.meta.rows_read };
}
