import { memo, useContext, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import { hydratedNow, subscribeHydrated } from "../lib/hydrated";
import { readSession } from "../lib/session-keys";
import { SignedInContext } from "../lib/signed-in";
import { Dialog, DialogClose } from "./dialog";

export type AvatarProfile = Pick<ProfileSummary, "simpleCode" | "nickname" | "avator"> &
  Partial<Pick<ProfileSummary, "qualify" | "blur" | "multiGender">>;

/**
 * §3 local key: safe mode replaces every avatar with a generated placeholder (§6). The switch is the member's profile
 * field `safeMode` (the server then sends only blurred renditions); this key mirrors it for the page.
 */
export const SAFE_MODE_KEY = "isSafeMode";
const SAFE_MODE_EVENT = "velvet:safe-mode";

export function setSafeMode(on: boolean) {
  localStorage.setItem(SAFE_MODE_KEY, on ? "true" : "false");
  storedSafeMode = undefined;
  window.dispatchEvent(new Event(SAFE_MODE_EVENT));
}

type AvatarMode = { safeMode: boolean; visitor: boolean };

/** Safe mode as this browser stored it (read once, again after a change); off until the page has hydrated. */
let storedSafeMode: boolean | undefined;
function readSafeMode(): boolean {
  if (!hydratedNow()) return false;
  storedSafeMode ??= localStorage.getItem(SAFE_MODE_KEY) === "true";
  return storedSafeMode;
}
/** Outside the member shell: a visitor unless this browser holds a session; a visitor until hydrated. */
const readVisitor = () => !hydratedNow() || !readSession();

// One set of window listeners for every avatar of the page (there are hundreds), installed with the first.
const modeListeners = new Set<() => void>();
function modeChanged() {
  storedSafeMode = undefined;
  for (const listener of modeListeners) listener();
}
function subscribeMode(onChange: () => void) {
  if (modeListeners.size === 0) {
    // Nobody listened since the last read: another tab may have changed it meanwhile.
    storedSafeMode = undefined;
    window.addEventListener(SAFE_MODE_EVENT, modeChanged);
    window.addEventListener("storage", modeChanged);
  }
  modeListeners.add(onChange);
  const stopHydrated = subscribeHydrated(onChange);
  return () => {
    stopHydrated();
    modeListeners.delete(onChange);
    if (modeListeners.size > 0) return;
    window.removeEventListener(SAFE_MODE_EVENT, modeChanged);
    window.removeEventListener("storage", modeChanged);
  };
}

/**
 * Safe mode and visitor state. In the member shell, "visitor" is the shell's answer (the request's session cookie),
 * the same on the server and in the browser; elsewhere it is the browser's stored session. Safe mode lives in this
 * browser only: off in the server render and while hydrating, read once hydrated. Both are stores of booleans, so an
 * avatar re-renders after hydration only when its mode differs from the server's (README Decisions "Browser-only
 * values after hydration"); avatars mounted later read local storage at once.
 */
export function useAvatarMode(): AvatarMode {
  const signedIn = useContext(SignedInContext);
  const safeMode = useSyncExternalStore(subscribeMode, readSafeMode, () => false);
  const browserVisitor = useSyncExternalStore(subscribeMode, readVisitor, () => true);
  return { safeMode, visitor: signedIn === null ? browserVisitor : !signedIn };
}

/** A deterministic placeholder picture (initial on a colour derived from the member number). */
function placeholderStyle(seed: string, size: number): React.CSSProperties {
  let hash = 0;
  for (const ch of seed) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return {
    width: size,
    height: size,
    fontSize: Math.max(10, size * 0.42),
    background: `linear-gradient(135deg, hsl(${hue} 55% 42%), hsl(${(hue + 50) % 360} 60% 30%))`,
  };
}

/**
 * §7: "a gravatar-style image is tried when there is no avatar". Gravatar itself would hand a third party the
 * member's e-mail hash and every page view, so the identicon is drawn here: a 5×5 left-right mirrored pattern and
 * a hue, both from a hash of the member number (stable per member, says nothing about them).
 */
export function identiconCells(seed: string): { hue: number; cells: boolean[] } {
  // FNV-1a, then a xorshift stream for the 15 cells of the left half and middle column.
  let hash = 0x811c9dc5;
  for (const ch of seed) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  let x = hash || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  const half: boolean[] = [];
  for (let i = 0; i < 15; i++) half.push(next() % 2 === 0);
  const cells: boolean[] = [];
  for (let row = 0; row < 5; row++) for (let col = 0; col < 5; col++) cells.push(half[row * 3 + (col < 3 ? col : 4 - col)]!);
  return { hue: hash % 360, cells };
}

function Identicon({ seed, size, label, hidden }: { seed: string; size: number; label: string; hidden: boolean }) {
  const { hue, cells } = identiconCells(seed);
  return (
    <svg
      className="avatar avatar-identicon"
      width={size}
      height={size}
      viewBox="-0.5 -0.5 6 6"
      role={hidden ? undefined : "img"}
      aria-label={hidden ? undefined : label}
      aria-hidden={hidden || undefined}
      data-identicon=""
      style={{ width: size, height: size, background: `hsl(${hue} 25% 92%)` }}
    >
      {/* biome-ignore lint/suspicious/noArrayIndexKey: a cell is its position in the fixed 5×5 grid */}
      {cells.map((on, i) => (on ? <rect key={i} x={i % 5} y={Math.floor(i / 5)} width={1.02} height={1.02} fill={`hsl(${hue} 55% 45%)`} /> : null))}
    </svg>
  );
}

export const publicProfileHref = (projectCode: string, simpleCode: string) => `/${projectCode}/share/${encodeURIComponent(simpleCode)}`;

/**
 * The one avatar every feature uses. Applies, in order: safe mode (generated placeholder), missing avatar
 * (placeholder), odd multiGender with an unqualified avatar ('not appropriate avatar', §4), the blur flag and
 * visitor blur (§6: logged-out visitors see blurred avatars and get a login dialog on tapping one), and gray
 * when `grayed` (blocked by me, §4). `link` makes it open the member's public profile. `decorative` hides the
 * picture from screen readers where the control around it already names the member (a chat list row). `eager`
 * is for the few avatars of a page's first screen.
 */
// Memoised: pages render avatars by the hundred, and a list that re-renders (its rest arrived, a live update) should
// not re-render the avatars it already shows.
export const Avatar = memo(function Avatar({
  profile,
  size = 48,
  link = false,
  grayed = false,
  className = "",
  decorative = false,
  eager = false,
}: {
  profile: AvatarProfile;
  size?: number;
  link?: boolean | string;
  grayed?: boolean;
  className?: string;
  decorative?: boolean;
  /**
   * On the first screen, so fetched with the document instead of lazily: `true` for the page's largest pictures (high
   * priority; the server renderer preloads them), `"low"` for the rest of that screen (low priority, no preload: the
   * renderer puts preloads ahead of the stylesheets, which the first paint waits for).
   */
  eager?: boolean | "low";
}) {
  const { t } = useTranslation("profiles");
  const projectCode = (useParams().projectCode ?? "smp").toLowerCase();
  const { safeMode, visitor } = useAvatarMode();
  const [loginOpen, setLoginOpen] = useState(false);
  const name = profile.nickname || t("avatar.unnamed", { code: profile.simpleCode });
  const notAppropriate = Boolean(profile.avator) && profile.qualify === false && (profile.multiGender ?? 0) % 2 === 1;
  const usePlaceholder = safeMode || !profile.avator || notAppropriate;
  const blurred = !usePlaceholder && (visitor || Boolean(profile.blur));
  const classes = `avatar-frame ${grayed ? "avatar-gray" : ""} ${className}`.trim();
  const label = notAppropriate ? t("avatar.notAppropriate") : t("avatar.of", { name });

  const hidden = decorative && !link;
  const picture = !profile.avator && !safeMode ? (
    <Identicon seed={profile.simpleCode} size={size} label={label} hidden={hidden} />
  ) : usePlaceholder ? (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label comes and goes with role="img"
    <span
      className="avatar avatar-placeholder"
      style={placeholderStyle(profile.simpleCode, size)}
      role={hidden ? undefined : "img"}
      aria-label={hidden ? undefined : label}
      aria-hidden={hidden || undefined}
      title={notAppropriate ? label : undefined}
    >
      {notAppropriate ? "!" : name.slice(0, 1).toUpperCase()}
    </span>
  ) : (
    <img className={`avatar${blurred ? " blurred" : ""}`} src={profile.avator} alt={hidden ? "" : label} width={size} height={size} loading={eager ? "eager" : "lazy"} fetchPriority={eager === "low" ? "low" : eager ? "high" : undefined} style={{ width: size, height: size }} />
  );

  const href = typeof link === "string" ? link : publicProfileHref(projectCode, profile.simpleCode);
  if (!link) return <span className={classes}>{picture}</span>;
  if (visitor) {
    return (
      <>
        <button type="button" className={`${classes} avatar-button`} onClick={() => setLoginOpen(true)} aria-label={label}>
          {picture}
        </button>
        {loginOpen && <LoginPrompt projectCode={projectCode} onClose={() => setLoginOpen(false)} />}
      </>
    );
  }
  return (
    <Link className={classes} to={href} aria-label={label}>
      {picture}
    </Link>
  );
});

/**
 * §6: what a visitor gets on tapping an avatar, a blurred photo or any member-only control: a dialog leading to login
 * or sign-up. `forMembers` words it for a control (follow, leave a message) rather than for a picture.
 */
export function LoginPrompt({ projectCode, onClose, forMembers = false }: { projectCode: string; onClose: () => void; forMembers?: boolean }) {
  const { t } = useTranslation("profiles");
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={forMembers ? t("shell:visitor.promptTitle") : t("avatar.loginTitle")}
      description={forMembers ? t("shell:visitor.promptBody") : t("avatar.loginBody")}
      returnFocus
    >
      <div className="dialog-actions">
        <DialogClose>{t("common:cancel")}</DialogClose>
        <Link className="button" to={`/${projectCode}/registration`}>
          {t("shell:visitor.signUp")}
        </Link>
        <Link className="button button-primary" to={`/${projectCode}/login`}>
          {t("avatar.login")}
        </Link>
      </div>
    </Dialog>
  );
}
