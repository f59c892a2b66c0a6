import { createContext, useContext } from "react";
import { useAvatarMode } from "../../components/avatar";
import { useHydrated } from "../../lib/hydrated";
import { readSession } from "../../lib/session-keys";

/**
 * Whether the page request carried a session cookie (the member shell's loader reads it): the server render and
 * the browser agree from the first paint, so a visitor's page never shows member controls and never calls a
 * private endpoint (README Decisions "Visitors and navigation"). Null outside the member shell.
 */
export const SignedInContext = createContext<boolean | null>(null);

/** True for a member; outside the shell it falls back to the browser's stored session (visitor on the server). */
export function useSignedIn(): boolean {
  const fromShell = useContext(SignedInContext);
  const { visitor } = useAvatarMode();
  return fromShell ?? !visitor;
}

/**
 * The signed-in member's number from local storage (§3): null in the server render and while hydrating (both print
 * the same), then the stored session's, so pages can render member-specific parts on the server without a mismatch
 * (README Decisions "Browser-only values after hydration"). Null for a visitor.
 */
export function useMyMemberNo(): string | null {
  return useHydrated() ? readSession()?.memberNo || null : null;
}
