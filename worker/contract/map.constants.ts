/**
 * The map (§7 "a maps tiles service draws the map") and its §9 constants, shared by the page CSP
 * (worker/http/security-headers.ts) and the browser's maps, so the host the tiles come from and the host the
 * policy allows cannot drift apart. Zod-free: the browser imports it.
 */

/** OpenStreetMap's tile server answers on the bare host (the old a/b/c subdomains are retired). */
export const MAP_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
/** The one origin the page CSP allows images from for the map: exactly the template's scheme and host. */
export const MAP_TILE_ORIGIN = new URL(MAP_TILE_URL.replace(/\{[a-z]\}/g, "0")).origin;

/** §9: zoom 8 at first, 14 on the member's own position, 12 on a selected member. */
export const MAP_ZOOM = { initial: 8, own: 14, selection: 12 } as const;
export type MapView = keyof typeof MAP_ZOOM;
/** §9: the map zooms in one more level every 10 avatar taps. */
export const MAP_TAPS_PER_ZOOM = 10;
/**
 * Deepest zoom the taps reach around others' cells (README "Cells, not positions"): a ~1.2 km cell's centre drawn
 * closer reads like a street address. A map holding the member's own exact position may be zoomed by hand to 18.
 */
export const MAP_OTHERS_MAX_ZOOM = 14;
export const MAP_OWN_MAX_ZOOM = 18;

/**
 * The zoom of a view (§9). Taps are on members' avatars, so they deepen the selection's view only (capped around
 * others' cells); the first view and the member's own position keep their §9 zoom.
 */
export function mapZoom(view: MapView, taps: number): number {
  if (view !== "selection") return MAP_ZOOM[view];
  return Math.min(MAP_ZOOM.selection + Math.floor(Math.max(0, taps) / MAP_TAPS_PER_ZOOM), MAP_OTHERS_MAX_ZOOM);
}

/** §9 marker size in px: blocked 0, blurred 10, qualified 30 plus rank/10, else 20. */
export function markerSize(profile: { blocked?: boolean; blur?: boolean; qualify?: boolean }, rank: number): number {
  if (profile.blocked) return 0;
  if (profile.blur) return 10;
  return profile.qualify ? 30 + rank / 10 : 20;
}
