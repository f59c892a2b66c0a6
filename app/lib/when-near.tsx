import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { type LateModule, useLateModule } from "./late-module";

/**
 * True once the element comes within `margin` (a CSS margin) of the screen, and from then on (at once where
 * IntersectionObserver is missing; never while `ref` is empty). Blocks below a phone's first screen render, fetch and
 * hydrate then, not with the page (README Decisions "Lighter main pages"): the server and the first client render
 * show their fixed-size placeholder, so hydration matches. An object ref, observed from an effect: a state set from a
 * ref callback would be a synchronous update inside hydration's commit, re-rendering the page in one blocking task.
 */
export function useNear(ref: RefObject<Element | null>, margin = "300px"): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near) return;
    const el = ref.current;
    // Nothing to watch (every item already rendered): nothing to do.
    if (!el) return;
    if (typeof IntersectionObserver === "undefined") return setNear(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, margin, near]);
  return near;
}

/** `useNear` with its own ref, for a block that is itself the element watched; `margin` above and below only. */
export function useNearViewport<T extends Element = HTMLElement>(margin = "400px"): [RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  return [ref, useNear(ref, `${margin} 0px ${margin} 0px`)];
}

/** A below-the-fold block: an empty box of `minHeight` px until it nears the screen, then `children()`. */
export function WhenNear({ minHeight, children }: { minHeight: number; children: () => ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNear(box);
  if (near) return <>{children()}</>;
  return <NearBox box={box} minHeight={minHeight} />;
}

/**
 * A below-the-fold block whose code is not in the page's first load either: `late` is fetched when the block nears
 * the screen, and `children(module)` renders once it has arrived (README Decisions "Below the fold, the code on
 * demand too").
 * Could not fetch it (offline): the box stays, as the block's own read of its data would have failed too.
 */
export function WhenNearLate<T>({ minHeight, late, children }: { minHeight: number; late: LateModule<T>; children: (module: T) => ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNear(box);
  const module = useLateModule(late, near, () => {});
  // `near` too: a module fetched for an earlier page must not render this block before it is scrolled to.
  if (near && module) return <>{children(module)}</>;
  return <NearBox box={box} minHeight={minHeight} />;
}

/** The placeholder a block holds until it nears the screen: the element watched, of the block's expected height. */
export function NearBox({ box, minHeight }: { box: RefObject<HTMLDivElement | null>; minHeight: number }) {
  return <div ref={box} className="when-near" style={{ minHeight }} aria-hidden="true" />;
}
