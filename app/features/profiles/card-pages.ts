import { useEffect, useState } from "react";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";

/** One page of a member list as a loader sends it: `from` is where it starts in the whole list of `total`. */
export type CardPage = { cards: ProfileSummary[]; from: number; total: number };

/** Cards per page: the page brings the first, "Load more" the next through the same loader (`?from=`). */
const CARD_PAGE = 48;

/**
 * The loader's side: the page of `list` that `?from=` asks for. Only that page travels (README Decisions "Lighter main
 * pages"): 500 members made the feed's HTML some 200 KB and all-profiles' ~390 KB.
 */
export function cardPage(list: ProfileSummary[], url: URL): CardPage {
  const from = Math.min(Math.max(0, Math.trunc(Number(url.searchParams.get("from")) || 0)), list.length);
  return { cards: list.slice(from, from + CARD_PAGE), from, total: list.length };
}

/**
 * The page's side: the loader's first page and each page "Load more" brought (`arrived`, the fetcher's), appended
 * once when it starts where the list ends, each member shown once (a list can shift between two reads). `next` is
 * where the following page starts, null at the end. Key the component by whatever changes the list (a filter).
 */
export function useCardPages(first: CardPage, arrived: CardPage | undefined) {
  const [later, setLater] = useState<ProfileSummary[]>([]);
  useEffect(() => {
    if (arrived && arrived.from > 0) setLater((list) => (first.cards.length + list.length === arrived.from ? [...list, ...arrived.cards] : list));
  }, [arrived, first.cards.length]);
  const cards = later.length ? dedupe([...first.cards, ...later]) : first.cards;
  const next = first.cards.length + later.length;
  return { cards, next: next < first.total ? next : null };
}

function dedupe(list: ProfileSummary[]): ProfileSummary[] {
  const seen = new Set<string>();
  return list.filter((p) => !seen.has(p.simpleCode) && seen.add(p.simpleCode));
}
