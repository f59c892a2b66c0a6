/** Zod-free part of ./home.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

/** §9 constants the dashboard is built on. */
export const HOME_LIMITS = {
  strip: 30,
  hotProfiles: 48,
  wall: 5,
  related: 20,
  suggested: 20,
  notes: 12,
  visitors: 30,
  photoGrid: 10,
  photoGridMax: 60,
  reviewSession: 10,
  /** §9: hot discussion intro must exceed 20 characters. */
  noteIntroMin: 21,
} as const;

/** Uniform index in [0, n) from a source of random 32-bit words, by rejection sampling (no modulo bias). */
export function fairIndex(n: number, nextWord: () => number): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError("n must be a positive integer");
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const word = nextWord() >>> 0;
    if (word < limit) return word % n;
  }
}

/** A fair roulette pick with the platform's CSPRNG (§9 roulette picks at random). */
export function fairPick(n: number): number {
  const buffer = new Uint32Array(1);
  return fairIndex(n, () => crypto.getRandomValues(buffer)[0]!);
}
