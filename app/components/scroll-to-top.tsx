import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

/** §9: the scroll-to-top button appears once the page is scrolled more than 200 px. */
export const SCROLL_TOP_AFTER_PX = 200;

/**
 * §2 scroll-to-top, shown on every member page (the member shell renders it). A real button, so Enter and Space
 * work; it moves focus to the page's heading, as the button itself goes away at the top. It sits above the bottom
 * navigation, and above a chat's send box when its usual place would cover it (`liftAboveSendBox`), or not at all
 * when the box leaves no room above it.
 */
export function ScrollToTop() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const [lift, setLift] = useState<number | null>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the shell stays while the member moves between pages; each page's send box is looked up again
  useEffect(() => {
    let frame = 0;
    const check = () => {
      frame = 0;
      const scrolled = window.scrollY > SCROLL_TOP_AFTER_PX;
      const lifted = scrolled ? liftAboveSendBox() : null;
      // A send box taller than the window leaves no place for the button (a phone held sideways, with the
      // profile reminder): it goes rather than sit out of reach above the window's top.
      setShown(scrolled && (lifted === null || lifted + BUTTON_PX + GAP_PX <= window.innerHeight));
      setLift(lifted);
    };
    const onChange = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    // At the next frame, not now: reading scrollY in the page's first effects forced a layout inside that task.
    onChange();
    window.addEventListener("scroll", onChange, { passive: true });
    window.addEventListener("resize", onChange, { passive: true });
    // The send box grows with its text and with the reminders above its row, without any scrolling.
    const resized = new ResizeObserver(onChange);
    for (const box of document.querySelectorAll(SEND_BOX)) resized.observe(box);
    return () => {
      window.removeEventListener("scroll", onChange);
      window.removeEventListener("resize", onChange);
      resized.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [pathname]);
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
    <button type="button" className="scroll-top" onClick={toTop} aria-label={t("scrollTop")} title={t("scrollTop")} style={lift === null ? undefined : { bottom: lift }}>
      <span aria-hidden="true">↑</span>
    </button>
  );
}

/** A chat's send box: sticky above the bottom navigation, as tall as its reminders make it (chat.css). */
const SEND_BOX = ".chat-send";
/** The gap kept between the button and the send box, as between the button and the navigation (app.css: 0.75rem). */
const GAP_PX = 12;
/** The button's height (app.css). */
const BUTTON_PX = 48;

/**
 * Where the button's bottom edge goes (px above the viewport's bottom) so that it clears the send box, or null when
 * its usual place does not touch the box. A new member's box carries the profile reminder and is some 350 px tall
 * on a phone: a fixed offset put the button over Send.
 */
function liftAboveSendBox(): number | null {
  const box = document.querySelector(SEND_BOX);
  if (!box) return null;
  const sendBox = box.getBoundingClientRect();
  // The usual place (app.css): GAP_PX above the bottom navigation, or above the window's edge where the side
  // navigation replaces it.
  const nav = document.querySelector(".bottom-nav");
  const usualBottom = (nav?.getClientRects().length ? nav.getBoundingClientRect().top : window.innerHeight) - GAP_PX;
  const touches = sendBox.top < usualBottom + GAP_PX && sendBox.bottom > usualBottom - BUTTON_PX - GAP_PX;
  return touches ? Math.round(window.innerHeight - sendBox.top + GAP_PX) : null;
}
