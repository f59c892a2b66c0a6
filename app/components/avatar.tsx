import { Dialog } from "radix-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { ProfileSummary } from "../../worker/contract/profile-summary";
import { readSession } from "../lib/session-keys";
import { useReturnFocus } from "./return-focus";

export type AvatarProfile = Pick<ProfileSummary, "simpleCode" | "nickname" | "avator"> &
  Partial<Pick<ProfileSummary, "qualify" | "blur" | "multiGender">>;

/** §3 local key: safe mode replaces every avatar with a generated placeholder (§6). */
export const SAFE_MODE_KEY = "isSafeMode";
const SAFE_MODE_EVENT = "velvet:safe-mode";

export function setSafeMode(on: boolean) {
  localStorage.setItem(SAFE_MODE_KEY, on ? "true" : "false");
  window.dispatchEvent(new Event(SAFE_MODE_EVENT));
}

/** Safe mode and visitor state, read after hydration (the server renders the cautious form: blurred). */
export function useAvatarMode() {
  const [mode, setMode] = useState({ safeMode: false, visitor: true, ready: false });
  useEffect(() => {
    const read = () => setMode({ safeMode: localStorage.getItem(SAFE_MODE_KEY) === "true", visitor: !readSession(), ready: true });
    read();
    window.addEventListener(SAFE_MODE_EVENT, read);
    window.addEventListener("storage", read);
    return () => {
      window.removeEventListener(SAFE_MODE_EVENT, read);
      window.removeEventListener("storage", read);
    };
  }, []);
  return mode;
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

export const publicProfileHref = (projectCode: string, simpleCode: string) => `/${projectCode}/share/${encodeURIComponent(simpleCode)}`;

/**
 * The one avatar every feature uses. Applies, in order: safe mode (generated placeholder), missing avatar
 * (placeholder), odd multiGender with an unqualified avatar ('not appropriate avatar', §4), the blur flag and
 * visitor blur (§6: logged-out visitors see blurred avatars and get a login dialog on tapping one), and gray
 * when `grayed` (blocked by me, §4). `link` makes it open the member's public profile.
 */
export function Avatar({
  profile,
  size = 48,
  link = false,
  grayed = false,
  className = "",
}: {
  profile: AvatarProfile;
  size?: number;
  link?: boolean | string;
  grayed?: boolean;
  className?: string;
}) {
  const { t } = useTranslation("profiles");
  const returnFocus = useReturnFocus();
  const projectCode = (useParams().projectCode ?? "smp").toLowerCase();
  const { safeMode, visitor } = useAvatarMode();
  const [loginOpen, setLoginOpen] = useState(false);
  const name = profile.nickname || t("avatar.unnamed", { code: profile.simpleCode });
  const notAppropriate = Boolean(profile.avator) && profile.qualify === false && (profile.multiGender ?? 0) % 2 === 1;
  const usePlaceholder = safeMode || !profile.avator || notAppropriate;
  const blurred = !usePlaceholder && (visitor || Boolean(profile.blur));
  const classes = `avatar-frame ${grayed ? "avatar-gray" : ""} ${className}`.trim();
  const label = notAppropriate ? t("avatar.notAppropriate") : t("avatar.of", { name });

  const picture = usePlaceholder ? (
    <span className="avatar avatar-placeholder" style={placeholderStyle(profile.simpleCode, size)} role="img" aria-label={label} title={notAppropriate ? label : undefined}>
      {notAppropriate ? "!" : name.slice(0, 1).toUpperCase()}
    </span>
  ) : (
    <img className={`avatar${blurred ? " blurred" : ""}`} src={profile.avator} alt={label} width={size} height={size} loading="lazy" style={{ width: size, height: size }} />
  );

  const href = typeof link === "string" ? link : publicProfileHref(projectCode, profile.simpleCode);
  if (!link) return <span className={classes}>{picture}</span>;
  if (visitor) {
    return (
      <>
        <button type="button" className={`${classes} avatar-button`} onClick={() => setLoginOpen(true)} aria-label={label}>
          {picture}
        </button>
        {loginOpen && (
          <Dialog.Root open onOpenChange={setLoginOpen}>
            <Dialog.Portal>
              <Dialog.Overlay className="dialog-overlay" />
              <Dialog.Content className="dialog" {...returnFocus}>
                <Dialog.Title className="dialog-title">{t("avatar.loginTitle")}</Dialog.Title>
                <Dialog.Description className="dialog-body">{t("avatar.loginBody")}</Dialog.Description>
                <div className="dialog-actions">
                  <Dialog.Close className="button">{t("common:cancel")}</Dialog.Close>
                  <Link className="button button-primary" to={`/${projectCode}/login`}>
                    {t("avatar.login")}
                  </Link>
                </div>
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        )}
      </>
    );
  }
  return (
    <Link className={classes} to={href} aria-label={label}>
      {picture}
    </Link>
  );
}
