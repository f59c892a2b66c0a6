import { env } from "cloudflare:test";
import type { Hono } from "hono";
import { call, expectOk, fetchWorker, signUp, uniqueEmail, type Member, type Reply } from "./client";

/**
 * The one table of per-route expectations used by the security suites (authorization matrix, hostile
 * input). Every route mounted in the Hono API must have an entry here: a route missing from this table
 * fails `tests/api/security-matrix.test.ts`, so a new endpoint cannot slip through unchecked.
 *
 * Keys are `METHOD /public|private/<Hono path pattern>`, exactly as `api.routes` reports them.
 */

/** The members every case may use. `owner` carries secret profile fields no one else may ever see. */
export type Fixture = {
  /** Rightful owner (tenant SMP). */
  owner: Member;
  /** Another member of the same tenant. */
  other: Member;
  /** A member of another tenant (ABC). */
  foreign: Member;
  /** A fresh member for cases that consume their owner (end the session, delete the account, hit limits). */
  fresh: (project?: string) => Promise<Member>;
  /** Values stored on the owner that must never reach anyone else. */
  secrets: string[];
};

/** A request as the rightful owner sends it. `params` fill the `:name` segments of the pattern. */
export type RequestSpec = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON body (objects) — mutated by the hostile-input suite. */
  body?: unknown;
  /** Multipart body (uploads); built fresh per call. */
  form?: () => FormData;
  /** Who the owner is when not `fixture.owner` (e.g. a fresh member). */
  as?: Member;
};

export type Access =
  /** Denied (401/403/404) and nothing changes. */
  | "denied"
  /** Succeeds with the caller's own view; the owner's secrets must not appear in the answer. */
  | "allowed";

export type RouteCase = {
  /** Builds the owner's valid request (may create fixtures through the API). */
  request: (f: Fixture) => Promise<RequestSpec> | RequestSpec;
  /** The same request with another member's session (default "denied"). */
  other?: Access;
  /** The same request with a session of tenant ABC (default "denied"). */
  foreign?: Access;
  /** Owner's expected status (default 200). */
  status?: number;
  /** Body fields whose type is free-form JSON (the hostile suite does not mutate their type). */
  freeFields?: string[];
  /** The body is ignored by the route (no body mutation; e.g. logout). */
  noBody?: boolean;
  /** Extra assertions on the owner's reply. */
  check?: (reply: Reply, f: Fixture) => Promise<void> | void;
};

export type PublicCase = {
  request: (f: Fixture) => Promise<RequestSpec> | RequestSpec;
  status?: number;
  freeFields?: string[];
  noBody?: boolean;
};

/** Public routes (no session): only the hostile-input suite and the leak checks use them. */
export const publicRoutes: Record<string, PublicCase> = {
  // ── session (worker/features/session/session.routes.ts)
  "POST /public/core/members/referral-signup": {
    request: async () => {
      const referrer = await signUp("SMP");
      const row = await env.DB.prepare("select referral_code from members where id = ?").bind(referrer.memberId).first<{ referral_code: string }>();
      return { body: { username: uniqueEmail("ref"), password: "correct horse battery", referralCode: row!.referral_code } };
    },
  },
  "POST /public/core/members/:project": {
    request: () => ({ params: { project: "SMP" }, body: { username: uniqueEmail("signup"), password: "correct horse battery", adult: true } }),
  },
  "POST /public/core/sessions/:project": {
    request: async (f) => {
      const m = await f.fresh();
      return { params: { project: "SMP" }, body: { username: m.email, password: m.password } };
    },
  },
  "POST /public/core/members/:project/forget/password": {
    request: (f) => ({ params: { project: "SMP" }, body: { email: f.owner.email } }),
  },
  "POST /public/core/members/:project/reset/password": {
    // A syntactically valid but unknown token: refused with 400 (the happy path lives in session.test.ts).
    request: () => ({ params: { project: "SMP" }, body: { token: "x".repeat(40), newPassword: "another long password" } }),
    status: 400,
  },

  // ── health (worker/features/health/health.routes.ts)
  "GET /public/health": { request: () => ({}) },
  "GET /public/health/db": { request: () => ({}) },
};

/** Private routes (behind requireSession). */
export const privateRoutes: Record<string, RouteCase> = {
  // ── session
  "POST /private/core/sessions/expire": {
    request: async (f) => ({ as: await f.fresh() }),
    other: "allowed",
    foreign: "allowed",
    noBody: true,
    check: async (reply, _f) => {
      expectOk(reply);
    },
  },
  "POST /private/core/sessions/ticket": {
    request: () => ({ body: { audience: "socket" } }),
    other: "allowed",
    foreign: "allowed",
  },
  "PUT /private/core/members/password/:memberId": {
    request: async (f) => {
      const m = await f.fresh();
      return { as: m, params: { memberId: m.memberId }, body: { oldPassword: m.password, newPassword: "a brand new password" } };
    },
  },
  "POST /private/core/otp/:memberId": {
    request: async (f) => {
      const m = await f.fresh();
      return { as: m, params: { memberId: m.memberId }, body: {} };
    },
  },
};

// ── enumeration ──────────────────────────────────────────────────────────────────────────────

export type MountedRoute = { method: string; path: string; key: string; visibility: "public" | "private" };

/**
 * Every concrete API route of the worker app (method + pattern), without middleware and catch-alls.
 * `/api/v7/<public|private>/…` is keyed without its prefix (v6 mounts the same handlers, checked by the
 * matrix); other API doors (e.g. `/api/v3/storage`) keep their full path and are private when the
 * private table lists them.
 */
export function mountedRoutes(app: Hono<any, any, any>): MountedRoute[] {
  const seen = new Map<string, MountedRoute>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    let path = route.path.replace(/\/+$/, "") || "/";
    if (!path.startsWith("/api/") || path.startsWith("/api/v6/")) continue;
    if (path.startsWith("/api/v7/")) path = path.slice("/api/v7".length);
    if (path.includes("*")) continue;
    const key = `${route.method} ${path}`;
    const visibility = path.startsWith("/private/") || (!path.startsWith("/public/") && key in privateRoutes) ? "private" : "public";
    if (!seen.has(key)) seen.set(key, { method: route.method, path, key, visibility });
  }
  return [...seen.values()];
}

/** The same, for one API version prefix (the matrix checks v6 and v7 mount the same routes). */
export function versionRoutes(app: Hono<any, any, any>, version: 6 | 7) {
  const prefix = `/api/v${version}/`;
  return new Set(app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith(prefix)).map((r) => `${r.method} ${r.path.slice(prefix.length - 1)}`));
}

/** Fills `:name` / `:name{regex}` segments; values are URL-encoded unless `raw`. */
export function fillPath(pattern: string, params: Record<string, string> = {}, raw = false) {
  return pattern.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${pattern}`);
    return raw ? value : encodeURIComponent(value);
  });
}

export const paramNames = (pattern: string) => [...pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

/** Sends a spec to a route as `who` (null = anonymous). Paths outside `/api/v7` are sent as they are. */
export async function send(
  route: Pick<MountedRoute, "method" | "path">,
  spec: RequestSpec,
  who: Member | null,
  overrides: { params?: Record<string, string>; body?: unknown; rawBody?: string; rawParams?: boolean; headers?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<Reply> {
  const params = { ...spec.params, ...overrides.params };
  let path = fillPath(route.path, params, overrides.rawParams);
  const query = overrides.query ?? spec.query;
  if (query && Object.keys(query).length) path += `?${new URLSearchParams(query)}`;
  let body: unknown = overrides.rawBody ?? ("body" in overrides ? overrides.body : spec.body);
  if (body === undefined && spec.form) body = spec.form();
  if (body === undefined && route.method !== "GET" && route.method !== "DELETE" && route.method !== "HEAD") body = {};
  if (!path.startsWith("/api/")) return call(route.method, path, { as: who, body, headers: overrides.headers });
  const headers: Record<string, string> = { ...(who?.headers ?? {}), ...(overrides.headers ?? {}) };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (typeof body === "string") payload = body;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined && !(body instanceof FormData)) headers["Content-Type"] ??= "application/json";
  const response = await fetchWorker(path, { method: route.method, headers, body: payload });
  const text = await response.text();
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { notJson: text };
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** Fields of every table, counted at once: the hostile and matrix suites assert nothing changed. */
export async function rowCounts(): Promise<Record<string, number>> {
  const tables = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations'",
  ).all<{ name: string }>();
  const names = tables.results.map((t) => t.name).sort();
  if (!names.length) return {};
  const sql = `select ${names.map((n, i) => `(select count(*) from "${n}") as c${i}`).join(", ")}`;
  const row = (await env.DB.prepare(sql).first<Record<string, number>>())!;
  const counts: Record<string, number> = {};
  names.forEach((n, i) => (counts[n] = row[`c${i}`]!));
  let objects = 0;
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ cursor, limit: 1000 });
    objects += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  counts["r2:objects"] = objects;
  return counts;
}

/** Builds the shared fixture: owner with secret profile fields, another member, a member of ABC. */
export async function buildFixture(): Promise<Fixture> {
  const [owner, other, foreign] = [await signUp("SMP"), await signUp("SMP"), await signUp("ABC")];
  const tag = owner.memberNo;
  const secrets = [`+1-555-PHONE-${tag}`, `+1-555-MOBILE-${tag}`, `1 Secret Lane ${tag}`, `pineapple-${tag}`];
  await env.DB.prepare("update profiles set phone = ?, mobile = ?, default_address = ?, safeword = ?, nickname = ? where member_id = ?")
    .bind(...secrets, `Owner ${tag}`, owner.memberId)
    .run();
  return {
    owner,
    other,
    foreign,
    fresh: (p = "SMP") => signUp(p),
    secrets: [...secrets, owner.email, owner.token],
  };
}
