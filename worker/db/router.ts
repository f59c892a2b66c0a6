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

/**
 * The tenant a request names before any session is read: the project header a client sends
 * (`X-Project-Code`), else a project in its path — a page's first segment (`/tst/home`), a room's name
 * (`/parties/<party>/TST~…`), or, in an API path, a segment that is a tenant with its own database (the §7
 * `{project}` of `/core/sessions/{project}`, `/core/home/{project}` …). Null: the shared database. A path that
 * names a project wins over the header, so a sign-up can never land in another tenant's database. What a request
 * names is only a route: a member whose session lives elsewhere is simply not found here, and requireSession
 * refuses a session whose tenant belongs to another database (http/auth.ts).
 */
export function requestTenant(env: Bindings, request: Request): string | null {
  const url = new URL(request.url);
  const segments = url.pathname.split("/");
  if (segments[1] === "parties") return roomTenantOf(segments[3]);
  if (segments[1] !== "api" && /^[A-Za-z]{3}$/.test(segments[1] ?? "")) return segments[1]!.toUpperCase();
  const own = tenantsWithOwnDatabase(env);
  if (segments[1] === "api" && own.length) {
    const named = segments.find((segment) => own.includes(segment.toUpperCase()));
    if (named) return named.toUpperCase();
  }
  const header = request.headers.get(PROJECT_HEADER);
  return header && /^[A-Za-z]{3}$/.test(header) ? header.toUpperCase() : null;
}

export const PROJECT_HEADER = "X-Project-Code";

function roomTenantOf(name: string | undefined): string | null {
  const tenant = decodeURIComponent(name ?? "").split("~")[0] ?? "";
  return /^[A-Za-z]{3}$/.test(tenant) ? tenant.toUpperCase() : null;
}
