import { type RefObject, useEffect } from "react";
import { useNearViewport } from "./when-near";

/**
 * A list wants its rest once it is on screen, not before: on a phone the first list sits just below the first screen,
 * and reading and decoding every list's rest right after the page loaded (some 60 KB) cost more main thread than the
 * cards themselves. The first of each list fills a phone's width, so the rest arrives behind what is shown.
 */
const ON_SCREEN = "0px";

/**
 * One long list of a page that came with the first of each (README Decisions "Lighter main pages"): the list shows
 * `first` until it comes on screen, then `first` followed by the rest of `more` (the whole list, once the page has
 * read it). So the rest of each list is rendered when the member scrolls to it, not every list's at once after
 * hydration. `onNear` tells the page a list wants its rest (the page reads all of them in one request).
 */
export function useRestWhenNear<T, E extends Element = HTMLElement>(
  first: T[],
  more: T[] | undefined,
  keyOf: (item: T) => string,
  onNear?: () => void,
): [RefObject<E | null>, T[]] {
  const [ref, near] = useNearViewport<E>(ON_SCREEN);
  useEffect(() => {
    if (near) onNear?.();
  }, [near, onNear]);
  return [ref, near && more ? followedByRest(first, more, keyOf) : first];
}

/**
 * The cards on screen stay where they are and the rest comes after them. `more` is a second read: a list ordered by
 * activity (the notes by last chat) can have moved in between, and taking its order would swap the cards under the
 * member's finger. The list stays as long as the second read's.
 */
export function followedByRest<T>(first: T[], more: T[], keyOf: (item: T) => string): T[] {
  const shown = new Set(first.map(keyOf));
  const rest = more.filter((item) => !shown.has(keyOf(item)));
  return first.concat(rest).slice(0, Math.max(first.length, more.length));
}
