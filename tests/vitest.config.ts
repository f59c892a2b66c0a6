import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { jsxStringsPlugin } from "./support/jsx-strings.ts";

const root = path.resolve(import.meta.dirname, "..");
// A VAPID key pair for tests only (README Configuration; tests/api/web-push.test.ts verifies signatures with it).
// Card payments against the local fake provider (tests/support/fake-stripe.ts answers https://stripe.test).
const TEST_STRIPE = {
  STRIPE_API_BASE: "https://stripe.test",
  STRIPE_SECRET_KEY: "sk_test_fake_provider_for_tests_only",
  STRIPE_WEBHOOK_SECRET: "whsec_fake_provider_for_tests_only",
};
const TEST_VAPID = {
  VAPID_PUBLIC_KEY: "BPyPDIOIlDQskeBb8KUV0odtYP-eR5qC-SU_VGKC01zydtIe5K2Ccx7zro_z8fVgIwz417IrO9NRqECt6_TabmM",
  VAPID_PRIVATE_KEY: "mJkD4U0z0kzOi51tq5pygiXYmUY8pD05NlUk9v18L_8",
  VAPID_SUBJECT: "mailto:push-tests@velvet.localhost",
};

// API, rooms and unit tests run inside workerd against real local D1, R2 and Durable Objects.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  return {
    plugins: [
      // `*.tsx?jsx-strings`: literal UI text parsed in Node (workerd cannot load the TypeScript compiler).
      jsxStringsPlugin(),
      cloudflareTest({
        main: path.join(root, "worker/test-entry.ts"),
        wrangler: { configPath: path.join(root, "wrangler.toml") },
        miniflare: {
          // Home lists read on every call, so a test sees its own writes at once (tests/api/home-lists.test.ts keeps them).
          bindings: { TEST_MIGRATIONS: migrations, JWT_SECRET: "test-secret-for-vitest-only-0123456789abcdef", SEAL_SECRET: "seal-secret-for-vitest-only-0123456789abcdef", SIGNAL_SECRET: "signal-secret-for-vitest-only-0123456789abcdef", ...TEST_VAPID, ...TEST_STRIPE, HOME_LISTS_TTL_SECONDS: "0", CHAT_PAGE_TTL_SECONDS: "0" },
        },
      }),
    ],
    test: {
      root,
      include: ["tests/{api,rooms,unit}/**/*.test.ts"],
      setupFiles: ["tests/support/apply-migrations.ts", "tests/support/fake-stripe-setup.ts"],
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // tests/unit/client-imports.test.ts reads which stylesheets the root one gathers (`?raw`; other CSS is empty).
      css: { include: [/app\/styles\/shared-features\.css/] },
    },
  };
});
