import { useEffect, useState } from "react";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import type { CardPage } from "./card-pages";

/**
 * The page's side of card-pages.ts: the loader's first page and each page "Load more" brought (`arrived`, the
 * fetcher's), appended once when it is the page the list asked for next, each member shown once. `next` is the cursor
 * to ask for, null at the end (an empty or last page ends the list). Key the component by whatever starts a new list
 * (a filter, a seed).
 */
export function useCardPages(first: CardPage, arrived: CardPage | undefined) {
  const [later, setLater] = useState<CardPage[]>([]);
  useEffect(() => {
    if (arrived && arrived.at !== first.at) setLater((pages) => ((pages.at(-1) ?? first).next === arrived.at ? [...pages, arrived] : pages));
  }, [arrived, first]);
  const cards = later.length ? dedupe([first, ...later].flatMap((page) => page.cards)) : first.cards;
  return { cards, next: (later.at(-1) ?? first).next };
}

function dedupe(list: ProfileSummary[]): ProfileSummary[] {
  const seen = new Set<string>();
  return list.filter((p) => !seen.has(p.simpleCode) && seen.add(p.simpleCode));
}
