import { useEffect, useRef, useState } from "react";

/**
 * A module the first paint does not need (README Decisions "Dialogs and toasts load after the first paint"), fetched
 * once: by `preload` when the page has settled, or by the first component that needs it (`useLateModule`). Not
 * React.lazy: lazy keeps a failed load for good, so one tap while offline would break the page for the rest of the
 * visit; here the next need tries again.
 */
export type LateModule<T> = {
  /** Fetches it now (once); a failure is forgotten, so the next call tries again. */
  fetch: () => Promise<T>;
  preload: () => void;
  /** The module if it has arrived (for parts that render only inside something that needed it). */
  current: () => T | null;
};

export function lateModule<T extends object>(load: () => Promise<T>): LateModule<T> {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  const fetch = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error) => {
        loading = null;
        throw error;
      },
    ));
  return { fetch, preload: () => void fetch().catch(() => {}), current: () => loaded };
}

/** The module once `needed` and arrived, else null; `onFailed` when it could not be fetched. */
export function useLateModule<T>(late: LateModule<T>, needed: boolean, onFailed: () => void): T | null {
  const [module, setModule] = useState<T | null>(late.current);
  // Read when the load ends: a new callback each render must not start another load.
  const failed = useRef(onFailed);
  failed.current = onFailed;
  useEffect(() => {
    if (!needed || module) return;
    let live = true;
    late.fetch().then(
      (arrived) => live && setModule(() => arrived),
      () => live && failed.current(),
    );
    return () => {
      live = false;
    };
  }, [late, needed, module]);
  return module;
}
