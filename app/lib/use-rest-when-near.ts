import { type RefObject, useEffect } from "react";
import { useNearViewport } from "./use-near-viewport";

/** How far ahead of the screen a list shows its rest: a member scrolling finds it filled in already. */
const AHEAD = "300px";

/**
 * One long list of a page that came with the first of each (README Decisions "Lighter main pages"): the list shows
 * `first` until it comes near the screen, then `more` (the whole list, once the page has read it). So the rest of
 * each list is rendered when the member scrolls to it, not every list's at once after hydration. `onNear` tells the
 * page a list wants its rest (the page reads all of them in one request).
 */
export function useRestWhenNear<T, E extends Element = HTMLElement>(first: T[], more: T[] | undefined, onNear?: () => void): [RefObject<E | null>, T[]] {
  const [ref, near] = useNearViewport<E>(AHEAD);
  useEffect(() => {
    if (near) onNear?.();
  }, [near, onNear]);
  return [ref, near && more ? more : first];
}
