import type { MiddlewareHandler } from "hono";
import { AppError } from "../lib/app-error";
import type { AppEnv } from "./types";

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's whole job
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * No path or query of the API carries control characters (NUL, newlines, escapes): they are refused with a 400
 * before any route sees them, instead of reaching SQLite's full-text search or a log line. A malformed percent
 * escape is a 400 too.
 */
export const refuseControlCharacters: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  let address: string;
  try {
    address = decodeURIComponent(url.pathname + url.search);
  } catch {
    throw new AppError("badRequest", { message: "Malformed percent escape in the address" });
  }
  if (CONTROL_CHARACTERS.test(address)) throw new AppError("badRequest", { message: "Control characters are not allowed in the address" });
  await next();
};

/**
 * Cancels a request body nobody read (an early 401/404/413, a page that ignores its form): local `wrangler dev` and
 * `vite preview` drop the connection now and then when a worker answers before the body is consumed (stack notes).
 */
export const cancelUnreadBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const request = c.req.raw;
  if (request.body && !request.bodyUsed) await request.body.cancel().catch(() => undefined);
};
