import type { Context } from "hono";
import { AppError } from "../lib/app-error";
import { servesTenant } from "../db/d1-session";
import type { AppEnv } from "./types";

const PROJECT_CODE = /^[A-Za-z]{3}$/;

/**
 * `{project}` is case-insensitive, stored upper-case; anything not three letters is a 400. A tenant whose
 * database is not this request's (db/router.ts; the request named another tenant) is "not found": nothing of a
 * tenant is read or written in another tenant's database.
 */
export function parseProjectCode(raw: string | undefined): string {
  if (!raw || !PROJECT_CODE.test(raw)) throw new AppError("badProjectCode");
  const project = raw.toUpperCase();
  if (!servesTenant(project)) throw new AppError("notFound");
  return project;
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
