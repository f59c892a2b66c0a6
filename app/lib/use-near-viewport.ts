import { type RefObject, useEffect, useRef, useState } from "react";

/**
 * True once the element given the returned ref comes within `margin` of the viewport (and from then on), so a block
 * below the first screen reads and renders its data when the member scrolls towards it, not while the page hydrates
 * (README Decisions "Lighter main pages"). An object ref, observed from an effect: a state set from a ref callback
 * would be a synchronous update inside hydration's commit, re-rendering the page in one blocking task.
 */
export function useNearViewport<T extends Element = HTMLElement>(margin = "400px"): [RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin} 0px ${margin} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, margin]);
  return [ref, near];
}
