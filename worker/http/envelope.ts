import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errors } from "../contract/errors";
import { SUCCESS_CODE, type Failure } from "../contract/envelope";
import { AppError } from "../lib/app-error";
import type { AppEnv } from "./types";

function failure(c: Context<AppEnv>, entry: { code: string; status: number; message: string }, extra?: Partial<Failure>) {
  const body: Failure = {
    returnCode: entry.code,
    returnMessage: extra?.returnMessage ?? entry.message,
    requestId: c.get("requestId") ?? "",
    ...(extra?.issues ? { issues: extra.issues } : {}),
  };
  return c.json(body, entry.status as ContentfulStatusCode);
}

/** One onError for every app: known errors become their envelope; anything else a generic 500. */
export function onError(err: Error, c: Context<AppEnv>) {
  // drizzle wraps what the D1 binding throws (a failed session guard is an AppError) in its own query error.
  if (!(err instanceof AppError) && err.cause instanceof AppError) err = err.cause;
  if (err instanceof AppError) {
    return failure(c, err.entry, { returnMessage: err.message, issues: err.issues });
  }
  if (err instanceof HTTPException) {
    if (err.status === 400) return failure(c, errors.malformedJson);
    if (err.status === 413) return failure(c, errors.tooLarge);
    if (err.status === 401) return failure(c, errors.unauthorized);
    const entry = Object.values(errors).find((e) => e.status === err.status) ?? errors.badRequest;
    return failure(c, entry);
  }
  // Never leak a stack trace: log it with the request id, answer the generic envelope.
  console.error(JSON.stringify({ level: "error", requestId: c.get("requestId"), message: err.message, stack: err.stack }));
  return failure(c, errors.internal);
}

export function notFound(c: Context<AppEnv>) {
  return failure(c, errors.notFound);
}

/**
 * The success envelope around JSON text that is already written (a chat page SQLite built): sent as it is, not
 * parsed and serialized again. `info` must be valid JSON; only trusted producers call this.
 */
export function okJsonText(c: Context<AppEnv>, info: string) {
  return c.body(`{"returnCode":"${SUCCESS_CODE}","returnMessage":"OK","info":${info}}`, 200, { "Content-Type": "application/json" });
}
