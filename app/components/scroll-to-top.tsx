import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** §9: the scroll-to-top button appears once the page is scrolled more than 200 px. */
export const SCROLL_TOP_AFTER_PX = 200;

/**
 * §2 scroll-to-top, shown on every member page (the member shell renders it). A real button, so Enter and Space
 * work; it moves focus to the page's heading, as the button itself goes away at the top. It sits above the bottom
 * navigation (and above a chat's send box), never over them.
 */
export function ScrollToTop() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let frame = 0;
    const check = () => {
      frame = 0;
      setShown(window.scrollY > SCROLL_TOP_AFTER_PX);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    // At the next frame, not now: reading scrollY in the page's first effects forced a layout inside that task.
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);
  if (!shown) return null;

  function toTop() {
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top: 0, behavior: reduced ? "auto" : "smooth" });
    const heading = document.querySelector<HTMLElement>(".shell-content main h1") ?? document.querySelector<HTMLElement>(".shell-content main");
    if (heading) {
      if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
  }

  return (
    <button type="button" className="scroll-top" onClick={toTop} aria-label={t("scrollTop")} title={t("scrollTop")}>
      <span aria-hidden="true">↑</span>
    </button>
  );
}
