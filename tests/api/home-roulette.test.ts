import { describe, expect, it } from "vitest";
import { fairIndex, fairPick } from "../../worker/contract/home";

/** Pearson's chi-square statistic of observed counts against a uniform expectation. */
function chiSquare(counts: number[]) {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

/** A small seeded 32-bit generator (mulberry32), so one of the checks is fully deterministic. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const ENTRIES = 12;
// Chi-square critical values for 11 degrees of freedom: p = 0.001 → 31.26, p = 1e-6 → about 50.
const CRITICAL_P001 = 31.26;
const CRITICAL_P1E6 = 50;

describe("training roulette fairness", () => {
  it("rejects the biased tail instead of folding it with modulo", () => {
    // n = 3: 2^32 mod 3 = 1, so the single word 2^32 - 1 must be rejected and the next word used.
    const words = [2 ** 32 - 1, 5];
    expect(fairIndex(3, () => words.shift()!)).toBe(5 % 3);
    expect(() => fairIndex(0, () => 0)).toThrow(RangeError);
    expect(() => fairIndex(2.5, () => 0)).toThrow(RangeError);
  });

  it("maps a uniform word source onto uniform entries (seeded: deterministic)", () => {
    const next = mulberry32(20261122);
    const counts = new Array(ENTRIES).fill(0);
    for (let i = 0; i < 120_000; i++) counts[fairIndex(ENTRIES, next)]++;
    expect(chiSquare(counts)).toBeLessThan(CRITICAL_P001);
  });

  it("is uniform with the platform CSPRNG (crypto.getRandomValues)", () => {
    const counts = new Array(ENTRIES).fill(0);
    for (let i = 0; i < 120_000; i++) {
      const pick = fairPick(ENTRIES);
      expect(pick >= 0 && pick < ENTRIES).toBe(true);
      counts[pick]++;
    }
    // A fixed, very loose tolerance (false alarm about once in a million runs), and every entry reachable.
    expect(chiSquare(counts)).toBeLessThan(CRITICAL_P1E6);
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });
});
