import { createMiddleware } from "hono/factory";
import type { Failure } from "../contract/envelope";
import { errors } from "../contract/errors";
import type { AppEnv } from "./types";

/**
 * Secrets the worker cannot run without (README Configuration): `JWT_SECRET` signs socket tickets and Bearer tokens,
 * `SEAL_SECRET` seals keyed albums' seeds, `SIGNAL_SECRET` keys the sign-in signal hashes (block-evasion.ts). A key derived from an empty or short secret protects nothing, so the
 * worker does not run on one.
 */
export const REQUIRED_SECRETS = ["JWT_SECRET", "SEAL_SECRET", "SIGNAL_SECRET"] as const;
export const MIN_SECRET_LENGTH = 32;
/**
 * Web push (README Configuration): the VAPID key pair (RFC 8292) as base64url — the public key an uncompressed P-256
 * point (65 bytes), the private key its 32-byte scalar — and a contact subject (`mailto:` or `https:`). Without
 * them no push could be signed, so the worker refuses to run like it does without its other secrets.
 */
export const VAPID_SECRETS = ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"] as const;

function base64urlLength(value: string): number | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  try {
    return atob(value.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/")).length;
  } catch {
    return null;
  }
}

function vapidProblems(values: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const name of VAPID_SECRETS) if (typeof values[name] !== "string" || values[name] === "") problems.push(`${name} is missing or empty`);
  if (problems.length) return problems;
  const publicKey = values.VAPID_PUBLIC_KEY as string;
  if (base64urlLength(publicKey) !== 65 || !publicKey.startsWith("B")) problems.push("VAPID_PUBLIC_KEY is not a base64url uncompressed P-256 point");
  if (base64urlLength(values.VAPID_PRIVATE_KEY as string) !== 32) problems.push("VAPID_PRIVATE_KEY is not a base64url 32-byte P-256 key");
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(values.VAPID_SUBJECT as string)) problems.push("VAPID_SUBJECT is not a mailto: or https: address");
  return problems;
}

/** What is wrong with the configuration, one line per secret; empty when the worker may run. */
export function configProblems(env: object | undefined): string[] {
  const values = (env ?? {}) as Record<string, unknown>;
  const secrets = REQUIRED_SECRETS.flatMap((name) => {
    const value = values[name];
    if (typeof value !== "string" || value === "") return [`${name} is missing or empty`];
    if (value.length < MIN_SECRET_LENGTH) return [`${name} is shorter than ${MIN_SECRET_LENGTH} characters`];
    return [];
  });
  return [...secrets, ...vapidProblems(values)];
}

/** Each distinct problem is logged once per isolate, not once per request. */
const logged = new Set<string>();

const PAGE_TEXT =
  "Velvet is not available: this server is not configured (a required secret is missing or too short).\n" +
  "If you run it, see the server log and README Configuration.\n";

/**
 * Fails closed (README Decisions "Fail closed on configuration"): without its secrets the worker answers every
 * request — API, pages, media, sockets — with 503, the envelope under /api and plain text elsewhere, and runs
 * nothing that would sign, seal or open with a missing key. Mounted first in `createWorkerApp`.
 */
export const configGuard = createMiddleware<AppEnv>(async (c, next) => {
  const problems = configProblems(c.env);
  if (problems.length === 0) return next();
  const reason = problems.join("; ");
  if (!logged.has(reason)) {
    logged.add(reason);
    console.error(JSON.stringify({ level: "error", message: "worker is not configured: every request is refused with 503", problems }));
  }
  const headers = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'" };
  if (new URL(c.req.url).pathname.startsWith("/api/")) {
    const entry = errors.notConfigured;
    const body: Failure = { returnCode: entry.code, returnMessage: entry.message, requestId: c.get("requestId") ?? "" };
    return c.json(body, 503, headers);
  }
  return c.text(PAGE_TEXT, 503, headers);
});
