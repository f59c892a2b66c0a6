// Small helpers shared by the bench harness: processes, timing, statistics, a seeded PRNG.
import { spawn } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const BIN = path.join(ROOT, "node_modules/.bin");

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function log(...parts) {
  const t = new Date().toISOString().slice(11, 19);
  console.log(`[bench ${t}]`, ...parts);
}

/** Runs a command to completion; rejects with its output on a non-zero exit. */
export function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, PATH: `${BIN}:${process.env.PATH}`, ...(options.env ?? {}) },
      // `inherit`: the child's output goes straight to ours (a suite run in its own process logs as it goes).
      stdio: ["ignore", options.inherit ? "inherit" : "pipe", options.inherit ? "inherit" : "pipe"],
    });
    let out = "";
    child.stdout?.on("data", (d) => (out += d));
    child.stderr?.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}\n${out.slice(-4000)}`))));
  });
}

export function percentile(sorted, p) {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const round = (n, digits = 1) => (n == null || Number.isNaN(n) ? null : Math.round(n * 10 ** digits) / 10 ** digits);

/** mulberry32: deterministic, fast, good enough for generated data. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
