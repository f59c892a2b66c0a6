import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// Chromium journeys against the production build served by `vite preview` (global setup starts it).
export default defineConfig({
  test: {
    root,
    include: ["tests/e2e/**/*.e2e.ts"],
    // the fake LINE issuer first: the preview reads its address; the fake card provider serves on E2E_PORT + 100
    globalSetup: ["tests/e2e/support/line-issuer.ts", "tests/e2e/support/server.ts", "tests/e2e/support/fake-stripe-server.ts"],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    environment: "node",
  },
});
