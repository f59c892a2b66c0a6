import { useEffect, useState } from "react";
import { coins } from "../../api/market-api";
import { readSession } from "../../lib/session-keys";

const COINS_EVENT = "velvet:coins-changed";

/** Called after an action that may change the member's coins (a photo rated, a transfer): every coin display refreshes. */
export function announceCoinsChanged() {
  window.dispatchEvent(new Event(COINS_EVENT));
}

/**
 * The member's M coins as the page loaded them, then re-read (§7 GET /core/pvs/{memberId}) after each coin-changing
 * action of this page and whenever the tab comes back into view (awards from others' replies land meanwhile).
 */
export function useLiveMcoin(initial: number): number {
  const [mcoin, setMcoin] = useState(initial);
  useEffect(() => setMcoin(initial), [initial]);
  useEffect(() => {
    let cancelled = false;
    const refresh = async () => {
      const session = readSession();
      if (!session) return;
      const body = await coins(session.memberId);
      if (!cancelled && "info" in body) setMcoin(body.info.mcoin);
    };
    const onVisible = () => document.visibilityState === "visible" && void refresh();
    window.addEventListener(COINS_EVENT, refresh);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      cancelled = true;
      window.removeEventListener(COINS_EVENT, refresh);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
  return mcoin;
}
