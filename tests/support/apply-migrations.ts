import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";

// Storage is isolated per test file; migrations are idempotent, so applying them per file is cheap.
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS);
