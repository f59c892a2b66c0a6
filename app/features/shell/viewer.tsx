import { useAvatarMode } from "../../components/avatar";
import { useHydrated } from "../../lib/hydrated";
import { readSession } from "../../lib/session-keys";

/**
 * True for a member: in the member shell, whether the page request carried a session cookie (`SignedInContext`,
 * ../../lib/signed-in); outside it, the browser's stored session (a visitor on the server).
 */
export function useSignedIn(): boolean {
  return !useAvatarMode().visitor;
}

/**
 * The signed-in member's number from local storage (§3): null in the server render and while hydrating (both print
 * the same), then the stored session's, so pages can render member-specific parts on the server without a mismatch
 * (README Decisions "Browser-only values after hydration"). Null for a visitor.
 */
export function useMyMemberNo(): string | null {
  return useHydrated() ? readSession()?.memberNo || null : null;
}
