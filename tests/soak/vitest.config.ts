import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// `npm run soak`: load and faults inside workerd (real D1, Durable Objects and WebSockets). Not part of `npm test`.
// SOAK_SOCKETS / SOAK_ROOMS / SOAK_SECONDS scale it (defaults: 1,000 sockets, 10 rooms, 60 s).
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        main: path.join(root, "worker/test-entry.ts"),
        wrangler: { configPath: path.join(root, "wrangler.toml") },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            JWT_SECRET: "soak-secret-for-vitest-only-0123456789abcdef",
            SEAL_SECRET: "soak-seal-secret-for-vitest-only-fedcba987654",
            SOAK_SOCKETS: process.env.SOAK_SOCKETS ?? "1000",
            SOAK_ROOMS: process.env.SOAK_ROOMS ?? "10",
            SOAK_SECONDS: process.env.SOAK_SECONDS ?? "60",
          },
        },
      }),
    ],
    test: {
      root,
      include: ["tests/soak/**/*.soak.ts"],
      setupFiles: ["tests/support/apply-migrations.ts"],
      testTimeout: 600_000,
      hookTimeout: 300_000,
      fileParallelism: false,
    },
  };
});
