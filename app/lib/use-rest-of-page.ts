import { startTransition, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";

/**
 * A page that came with the first part of its long lists (`partial`) reads its loader once more at `href` (which
 * asks for everything) after hydration, and gets the answer as a transition: the extra cards render in slices
 * that leave the page responsive (README Decisions "Lighter main pages"). Null until then. `partial` can also wait
 * for the lists to come near the screen (useNearViewport).
 */
export function useRestOfPage<T>(partial: boolean, href: string): T | null {
  const fetcher = useFetcher<T>();
  const [rest, setRest] = useState<T | null>(null);
  const asked = useRef<string | null>(null);
  const { load } = fetcher;
  useEffect(() => {
    if (!partial || asked.current === href) return;
    asked.current = href;
    void load(href);
  }, [partial, href, load]);
  useEffect(() => {
    const data = fetcher.data;
    // `T` is the loader's answer as the page already reads it (loaderData): the same serialised shape.
    if (data) startTransition(() => setRest(data as T));
  }, [fetcher.data]);
  return rest;
}
