import { createContext, startTransition, useContext, useEffect, useState } from "react";

/**
 * False while the server renders and while the browser hydrates, true from then on. Values only the browser knows
 * (the member's time zone, safe mode, who is reading) are read once this is true. A useSyncExternalStore whose server
 * snapshot differs from the browser's re-renders every such component synchronously right after hydration, in the
 * same task as the hydration's commit and all of its effects (a 300 ms task on a throttled phone); this flag turns
 * that into one transition, which React renders in slices (README Decisions "Browser-only values after hydration").
 */
const HydratedContext = createContext(false);

export function HydrationFlag({ children }: { children: React.ReactNode }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    startTransition(() => setHydrated(true));
    markHydrated();
  }, []);
  return <HydratedContext value={hydrated}>{children}</HydratedContext>;
}

export const useHydrated = () => useContext(HydratedContext);

/**
 * The same moment as a store, for values that almost always equal the server's (safe mode is off for most members):
 * a useSyncExternalStore reading `hydratedNow()` re-renders only when its own value changes, where every consumer of
 * the context above re-renders (every avatar of a page, ~0.1 s on a throttled phone). Its listeners run once, after
 * the effects of hydration's commit (this effect is the outermost).
 */
let hydratedYet = false;
const hydratedListeners = new Set<() => void>();

function markHydrated() {
  if (hydratedYet) return;
  hydratedYet = true;
  for (const listener of hydratedListeners) listener();
}

export const hydratedNow = () => hydratedYet;

export function subscribeHydrated(onChange: () => void): () => void {
  hydratedListeners.add(onChange);
  return () => hydratedListeners.delete(onChange);
}
