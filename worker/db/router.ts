import { keptIn } from "../lib/kept";

/**
 * README Decisions "A tenant per database": which D1 database holds a tenant (§2: a three-letter project code).
 * A tenant moved to its own database has a binding `DB_<CODE>` (wrangler.toml; README "Moving a tenant to its own
 * database"); every other tenant lives in `DB`. This is the only place that answers the question: the request
 * middleware (http/d1-sessions.ts), the rooms (rooms/*: their name starts with the tenant) and the scheduled jobs
 * (scheduled.ts: each database once) all ask here.
 */

type Bindings = { DB: D1Database };

const ownBindingName = (tenant: string) => `DB_${tenant.toUpperCase()}`;
const isDatabase = (value: unknown): value is D1Database =>
  typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function" && typeof (value as D1Database).batch === "function";

/** The database that holds `tenant`: its own `DB_<CODE>` binding when it has one, else the shared `DB`. */
export function databaseFor(env: Bindings, tenant: string | null | undefined): D1Database {
  if (!tenant || !/^[A-Za-z]{3}$/.test(tenant)) return env.DB;
  const own = (env as unknown as Record<string, unknown>)[ownBindingName(tenant)];
  return isDatabase(own) ? own : env.DB;
}

/** Tenants with a database of their own in this environment (upper-case codes). */
export function tenantsWithOwnDatabase(env: Bindings): readonly string[] {
  return keptIn(ownTenants, env as object, () =>
    Object.entries(env)
      .filter(([name, value]) => /^DB_[A-Z]{3}$/.test(name) && isDatabase(value))
      .map(([name]) => name.slice(3)),
  );
}
const ownTenants = new WeakMap<object, readonly string[]>();

/** Every database of this environment, each once: `DB` first, then each tenant's own (scheduled jobs run on each). */
export function allDatabases(env: Bindings): D1Database[] {
  const all = [env.DB, ...tenantsWithOwnDatabase(env).map((tenant) => databaseFor(env, tenant))];
  return [...new Set(all)];
}

/** `env` with `DB` set to `tenant`'s database (rooms, jobs: code outside a request that serves one tenant). */
export function tenantEnv<E extends Bindings>(env: E, tenant: string | null | undefined): E {
  const db = databaseFor(env, tenant);
  return db === env.DB ? env : { ...env, DB: db };
}

/** `env` with `DB` set to one database of `allDatabases(env)`. */
export function envOn<E extends Bindings>(env: E, db: D1Database): E {
  return db === env.DB ? env : { ...env, DB: db };
}

/** Where an API path names its tenant: the `{project}` segment of the route it matches (null: none). */
export type ApiProjectLocator = (pathname: string) => string | null;

/**
 * A locator from the API's route patterns (Hono's `app.routes`, read once on first use): a path names a tenant only
 * in the segment its route calls `:project` (§7 `/core/sessions/{project}`, `/core/home/{project}` …). A member
 * number, album id or chatroom id that happens to spell a tenant's code is not a tenant.
 */
export function apiProjectLocator(routes: () => readonly { path: string }[]): ApiProjectLocator {
  let patterns: RegExp[] | null = null;
  return (pathname) => {
    patterns ??= [...new Set(routes().map((route) => route.path))].filter((path) => /\/:project(Code)?(\/|$)/.test(path)).map(routePattern);
    for (const pattern of patterns) {
      const match = pattern.exec(pathname);
      if (match) return match[1]!.toUpperCase();
    }
    return null;
  };
}

/** A Hono path as an anchored expression capturing its `:project` segment. */
function routePattern(path: string): RegExp {
  const segments = path.split("/").map((segment) => {
    if (segment === ":project" || segment === ":projectCode") return "([A-Za-z]{3})";
    if (segment.startsWith(":")) return "[^/]+";
    if (segment === "*") return ".*";
    return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return new RegExp(`^${segments.join("/")}/?$`);
}

/**
 * The tenant a request names before any session is read: a project in its path — a page's first segment
 * (`/tst/home`), a room's name (`/parties/<party>/TST~…`), an API route's `{project}` segment (`apiProject`) —
 * else the project header a client sends (`X-Project-Code`). Null: the shared database. A path that names a project
 * wins over the header, so a sign-up can never land in another tenant's database. What a request names is only a
 * route: a member whose session lives elsewhere is simply not found here, and requireSession refuses a session whose
 * tenant belongs to another database (features/session/auth.ts).
 */
export function requestTenant(request: Request, apiProject: ApiProjectLocator): string | null {
  const url = new URL(request.url);
  const segments = url.pathname.split("/");
  if (segments[1] === "parties") return roomTenantOf(segments[3]);
  if (segments[1] !== "api" && /^[A-Za-z]{3}$/.test(segments[1] ?? "")) return segments[1]!.toUpperCase();
  const named = segments[1] === "api" ? apiProject(url.pathname) : null;
  if (named) return named;
  const header = request.headers.get(PROJECT_HEADER);
  return header && /^[A-Za-z]{3}$/.test(header) ? header.toUpperCase() : null;
}

export const PROJECT_HEADER = "X-Project-Code";

function roomTenantOf(name: string | undefined): string | null {
  const tenant = decodeURIComponent(name ?? "").split("~")[0] ?? "";
  return /^[A-Za-z]{3}$/.test(tenant) ? tenant.toUpperCase() : null;
}
