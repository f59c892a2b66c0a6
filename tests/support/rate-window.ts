/**
 * The rate-limit bindings count in windows aligned to the wall clock (README "Rate limits"). A test whose count must
 * fall in a single window (an exact refusal, or a budget something else counts too) waits out one about to end.
 */
export async function freshWindowIfEnding(periodSeconds: number, marginSeconds = 15) {
  const left = periodSeconds * 1000 - (Date.now() % (periodSeconds * 1000));
  if (left < marginSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
