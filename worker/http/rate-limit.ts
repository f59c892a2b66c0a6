import type { Context, MiddlewareHandler } from "hono";
import { AppError } from "../lib/app-error";
import type { AppEnv } from "./types";

/** Refuse with 429 in the envelope when the Workers rate-limit binding says no. */
export async function rateLimit(binding: RateLimit | undefined, key: string) {
  if (!binding) return;
  const { success } = await binding.limit({ key });
  if (!success) throw new AppError("rateLimited");
}

/** The caller's address as Cloudflare reports it; absent in local tests unless a test sets it. */
export function clientAddress(c: Context<AppEnv>): string | null {
  return c.req.header("CF-Connecting-IP") ?? null;
}

/** Per-address limit, applied only when the address is known. */
export async function rateLimitAddress(c: Context<AppEnv>, scope: string) {
  const address = clientAddress(c);
  if (address) await rateLimit(c.env.RL_ADDRESS, `${scope}:${address}`);
}

/**
 * A route's per-member budget for one action, checked before its body is read (so a flood is refused early):
 * `RL_SOCIAL` for the calls that reach another member (follows, friends, favourites, blocks, mutes, reports),
 * `RL_WRITE` for room fan-outs (reactions, edits, deletes, mark-read). README "Rate limits" lists them.
 */
export const limitPerMember = (binding: "RL_SOCIAL" | "RL_WRITE", action: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await rateLimit(c.env[binding], `${action}:${c.get("member").memberId}`);
    await next();
  };
