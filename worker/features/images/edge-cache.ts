/**
 * README Decisions "D1 read replicas through sessions" (edge part): renditions anyone may see (`/media`, public kinds
 * only) are kept in the data centre's cache (Cache API, `caches.default`) under their media key, so a repeat load
 * does not go to R2. Deleting the item or the account purges them (`deleteMedia` / `purgeMediaCache`).
 * `/private-media` (keyed albums, private messages) never comes here: checked on every request, `no-store`.
 *
 * The Cache API is per data centre and a purge reaches only the one it runs in, so the edge copy is kept for
 * EDGE_TTL_SECONDS at most: elsewhere a deleted public file outlives its deletion by at most that long (SECURITY.md).
 */
export const EDGE_TTL_SECONDS = 600;
/** Cache keys name the media key under an origin of their own, never the request's host or query. */
const CACHE_ORIGIN = "https://media-cache.velvet.invalid/";

const cacheKey = (key: string) => new Request(CACHE_ORIGIN + encodeURI(key));
const edgeCache = (): Cache | null => (typeof caches === "undefined" ? null : (caches as unknown as { default: Cache }).default ?? null);

/** The cached response for a public media key, with the browser's headers, or null. */
export async function cachedMedia(key: string, browserCacheControl: string): Promise<Response | null> {
  const hit = await edgeCache()?.match(cacheKey(key));
  if (!hit) return null;
  const response = new Response(hit.body, hit);
  response.headers.set("Cache-Control", browserCacheControl);
  response.headers.set("X-Edge-Cache", "hit");
  return response;
}

/** Keeps a copy of a public media response at the edge (the caller waits on it with waitUntil). */
export async function keepMedia(key: string, response: Response): Promise<void> {
  const cache = edgeCache();
  if (!cache) return;
  const copy = new Response(response.body, response);
  copy.headers.set("Cache-Control", `public, max-age=${EDGE_TTL_SECONDS}`);
  await cache.put(cacheKey(key), copy);
}

/** Drops media keys from this data centre's cache (private keys were never in it; dropping them is harmless). */
export async function purgeMediaCache(keys: readonly string[]): Promise<void> {
  const cache = edgeCache();
  if (!cache || !keys.length) return;
  await Promise.all(keys.map((key) => cache.delete(cacheKey(key)).catch(() => false)));
}

/** Deletes files from R2 and from the edge cache: the one way media a member removes goes away. */
export async function deleteMedia(env: { MEDIA: R2Bucket }, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) await env.MEDIA.delete(keys.slice(i, i + 1000));
  await purgeMediaCache(keys);
}
