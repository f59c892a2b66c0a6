import { createContext, useContext, useEffect, useState } from "react";
import { useAvatarMode } from "../../components/avatar";
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

/** The signed-in member's number from local storage (§3), after hydration; null until then or for a visitor. */
export function useMyMemberNo(): string | null {
  const [memberNo, setMemberNo] = useState<string | null>(null);
  useEffect(() => setMemberNo(readSession()?.memberNo || null), []);
  return memberNo;
}
