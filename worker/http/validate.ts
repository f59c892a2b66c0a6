import { validator } from "hono/validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { AppError } from "../lib/app-error";

/** JSON bodies above this are refused (413) whatever their fields: no route needs more, uploads are multipart. */
export const MAX_JSON_BYTES = 1024 * 1024;

/**
 * The one validator wrapper: every invalid request gets the same 400 envelope with its zod issues.
 * Malformed JSON is rejected by Hono before this runs and mapped by `onError`.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return validator(target, async (value, c) => {
    if (target === "json" && Number(c.req.header("Content-Length") ?? 0) > MAX_JSON_BYTES) throw new AppError("tooLarge");
    const input = target === "json" && (value === null || typeof value !== "object") ? {} : value;
    const result = await schema.safeParseAsync(target === "json" ? (value ?? input) : value);
    if (!result.success) {
      throw new AppError("badRequest", {
        issues: result.error.issues.map((issue) => ({
          path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
          message: issue.message,
          code: issue.code,
        })),
      });
    }
    return result.data as z.output<Schema>;
  });
}
