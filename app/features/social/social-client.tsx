import { useCallback, useEffect, useRef, useState } from "react";
import { BLOCK_ARM_MS } from "../../../worker/contract/social.constants";
import { readSession } from "../../lib/session-keys";

/** The signed-in member's private id (from the §3 local-storage session), or null before hydration. */
export function useMemberId(): string | null {
  const [memberId, setMemberId] = useState<string | null>(null);
  useEffect(() => setMemberId(readSession()?.memberId ?? null), []);
  return memberId;
}

/**
 * Two-step confirmation (§4 block control, §2 clear-all, unblock): the first tap arms for 3 s, a second
 * tap inside the window runs the action; after the window it disarms by itself.
 */
export function useTwoStep(action: () => void | Promise<void>, windowMs = BLOCK_ARM_MS) {
  const [armed, setArmed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const tap = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    if (!armed) {
      setArmed(true);
      timer.current = setTimeout(() => setArmed(false), windowMs);
      return;
    }
    setArmed(false);
    await action();
  }, [armed, action, windowMs]);
  return { armed, tap };
}

export const profilePath = (projectCode: string, memberNo: string) => `/${projectCode.toLowerCase()}/share/${memberNo}`;

/** Window event (detail: memberNo) sent after a report, which also hides that member's content for the reporter. */
export const MEMBER_HIDDEN_EVENT = "velvet:member-hidden";
