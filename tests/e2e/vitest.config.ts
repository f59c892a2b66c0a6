import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// Chromium journeys against the production build served by `vite preview` (global setup starts it).
export default defineConfig({
  test: {
    root,
    include: ["tests/e2e/**/*.e2e.ts"],
    globalSetup: ["tests/e2e/support/line-issuer.ts", "tests/e2e/support/server.ts"], // the fake LINE issuer first: the preview reads its address
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    environment: "node",
  },
});
