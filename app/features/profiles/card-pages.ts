import type { ProfileSummary } from "../../../worker/contract/profile-summary";

/**
 * One page of a member list as a loader sends it. `at` is the cursor it was asked for ("" for the first page), `next`
 * the cursor of the page after it (null at the end). Only that page travels (README Decisions "Lighter main pages"):
 * 500 members made the feed's HTML some 200 KB and all-profiles' ~390 KB. The page's side is use-card-pages.ts: in a
 * file of its own, it is small enough to share one browser file with the other small modules (vite.config.ts).
 */
export type CardPage = { cards: ProfileSummary[]; at: string; next: string | null };

/** Cards per page: the page brings the first, "Load more" the next through the same loader (`?at=`). */
const CARD_PAGE = 48;

/** A page by position (`?at=` a count), for a ranked list such as the feed's. */
export function cardPage(list: ProfileSummary[], url: URL): CardPage {
  const at = url.searchParams.get("at") ?? "";
  const from = Math.min(Math.max(0, Math.trunc(Number(at)) || 0), list.length);
  const to = from + CARD_PAGE;
  return { cards: list.slice(from, to), at, next: to < list.length ? String(to) : null };
}

/**
 * §2's random order, kept while the member pages through it: each member's place is a hash of the visit's seed and
 * their code, and a page is the members placed after the last one shown (`?at=` that place). The API shuffles each
 * read and its list can gain or lose a member between two reads; by place, nobody still listed is skipped or repeated.
 */
export function shuffledCardPage(list: ProfileSummary[], seed: string, url: URL): CardPage {
  const at = url.searchParams.get("at")?.match(/^\d{1,10}$/)?.[0] ?? "";
  const after = at === "" ? -1 : Number(at);
  const placed = list.map((p) => ({ p, place: placeOf(seed, p.simpleCode) })).sort((a, b) => a.place - b.place || a.p.simpleCode.localeCompare(b.p.simpleCode));
  const rest = placed.filter(({ place }) => place > after);
  const page = rest.slice(0, CARD_PAGE);
  return { cards: page.map(({ p }) => p), at, next: rest.length > CARD_PAGE ? String(page.at(-1)!.place) : null };
}

function placeOf(seed: string, code: string): number {
  let h = 2166136261;
  for (const ch of `${seed}:${code}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}
