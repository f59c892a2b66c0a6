import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";
import { allDatabases } from "../../worker/db/router";

// Storage is isolated per test file; migrations are idempotent, so applying them per file is cheap. Every bound
// database is migrated: DB and each tenant's own (DB_TST; README Decisions "A tenant per database").
const migrations = (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS;
for (const db of allDatabases(env)) await applyD1Migrations(db, migrations);
