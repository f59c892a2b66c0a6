/**
 * Runs `work` once the page has settled: `delayMs` after the call, then at the browser's next idle moment (at most
 * 5 s later; at once where there is no idle callback). For work nothing on screen needs: code a later tap will
 * want, keys to publish. Returns a cancel for effects' cleanup.
 */
export function whenSettled(work: () => void, delayMs: number): () => void {
  let idle = 0;
  const timer = setTimeout(() => {
    if ("requestIdleCallback" in window) idle = window.requestIdleCallback(work, { timeout: 5000 });
    else work();
  }, delayMs);
  return () => {
    clearTimeout(timer);
    if (idle) window.cancelIdleCallback(idle);
  };
}
