import ngeohash from "ngeohash";
import { COMPASS_POINTS, type CompassPoint } from "../../contract/social.constants";
import { bearingDegrees, distanceKm, validCoordinates } from "./profile-math";

/**
 * How a member's position is presented to anyone but that member (README "Cells, not positions"): the centre of
 * the fixed geohash cell the member is in, a whole-kilometre distance between cell centres and one of eight
 * compass points. Everything here is a function of the two cells alone, so repeated calls, averaging or a
 * viewer walking around learn nothing finer than the cell. The exact position leaves the server only to its owner.
 */

/** 6 geohash characters: a cell of about 1.2 km × 0.6 km (at the equator; narrower east–west towards the poles). */
export const CELL_PRECISION = 6;
/** Cell centres are rounded to 5 decimals (about 1 m): deterministic per cell, and short. */
const CENTRE_DECIMALS = 5;


/** What others see of a member's position: the cell and its centre, or nothing. */
export type PositionCell = { geohash: string; latitude: number; longitude: number };
export const NO_CELL = { geohash: null, latitude: null, longitude: null } as const;

/** Where a position may be shown to others at all: opted in (`showPosition`), not closed, not suspended. */
export type PositionOwner = {
  latitude: number | null;
  longitude: number | null;
  showPosition: boolean;
  closed: boolean;
  blocked: boolean;
};

const round = (value: number) => Number(value.toFixed(CENTRE_DECIMALS));

/** The cell of a position (null when the coordinates are missing or out of range). */
export function cellOf(latitude: number | null | undefined, longitude: number | null | undefined): PositionCell | null {
  if (!validCoordinates(latitude, longitude)) return null;
  const geohash = ngeohash.encode(latitude!, longitude!, CELL_PRECISION);
  const centre = ngeohash.decode(geohash);
  return { geohash, latitude: round(centre.latitude), longitude: round(centre.longitude) };
}

/** The cell others may see of `owner`, or null: not opted in, closed, suspended or no position. */
export function visibleCell(owner: PositionOwner): PositionCell | null {
  if (!owner.showPosition || owner.closed || owner.blocked) return null;
  return cellOf(owner.latitude, owner.longitude);
}

/**
 * The §3 geohash/latitude/longitude fields of a profile as others see them: another member of the tenant gets the
 * cell; a visitor (logged out) gets no position at all (§6 public data; adversary checklist).
 */
export function publicPositionFields(owner: PositionOwner, viewerIsMember: boolean): PositionCell | typeof NO_CELL {
  return (viewerIsMember && visibleCell(owner)) || NO_CELL;
}

/** One of eight compass points for a bearing in degrees (0 = north). */
export function compassPoint(degrees: number): CompassPoint {
  return COMPASS_POINTS[Math.round((((degrees % 360) + 360) % 360) / 45) % 8]!;
}

/**
 * Distance in whole kilometres (at least 1: "within about a kilometre") and compass point from the viewer's cell
 * to the target's cell; no bearing inside the same cell.
 */
export function between(from: PositionCell, to: PositionCell): { distanceKm: number; bearing: CompassPoint | null } {
  const km = distanceKm(from.latitude, from.longitude, to.latitude, to.longitude);
  return {
    distanceKm: Math.max(1, Math.round(km)),
    bearing: from.geohash === to.geohash ? null : compassPoint(bearingDegrees(from.latitude, from.longitude, to.latitude, to.longitude)),
  };
}

/** Distance and bearing a viewer at (viewerLat, viewerLng) gets for `target`: null unless the target's cell is visible. */
export function relativeTo(
  viewer: { latitude: number | null | undefined; longitude: number | null | undefined } | null | undefined,
  target: PositionOwner,
): { distanceKm: number | null; bearing: CompassPoint | null } {
  const to = visibleCell(target);
  const from = viewer ? cellOf(viewer.latitude, viewer.longitude) : null;
  if (!to || !from) return { distanceKm: null, bearing: null };
  return between(from, to);
}
