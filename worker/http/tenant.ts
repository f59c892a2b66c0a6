import type { Context } from "hono";
import { AppError } from "../lib/app-error";
import type { AppEnv } from "./types";

const PROJECT_CODE = /^[A-Za-z]{3}$/;

/** `{project}` is case-insensitive, stored upper-case; anything not three letters is a 400. */
export function parseProjectCode(raw: string | undefined): string {
  if (!raw || !PROJECT_CODE.test(raw)) throw new AppError("badProjectCode");
  return raw.toUpperCase();
}

/**
 * Project code from the path on a private route: it must be the session's tenant.
 * Another tenant's data is "not found", never "forbidden".
 */
export function sessionProject(c: Context<AppEnv>, raw: string | undefined): string {
  const project = parseProjectCode(raw);
  if (project !== c.get("member").projectCode) throw new AppError("notFound");
  return project;
}

/** `{memberId}` in a private path must be the caller's own account. */
export function requireSelf(c: Context<AppEnv>, memberId: string | undefined) {
  const member = c.get("member");
  if (memberId !== member.memberId) throw new AppError("forbidden");
  return member;
}
