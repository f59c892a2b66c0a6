import { readFileSync } from "node:fs";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// VELVET_STATE_DIR lets the browser tests run against their own fresh local D1/R2/DO state.
const stateDir = process.env.VELVET_STATE_DIR;
// Browser journeys (`npm run test:e2e` builds with VELVET_E2E_BUILD=1): card payments talk to the local fake provider
// the journeys start on E2E_PORT + 100 (tests/e2e/support/fake-stripe-server.ts), with test-only keys, and return to
// the preview's own address. Never set for a deploy build.
const e2ePort = process.env.VELVET_E2E_BUILD ? Number(process.env.E2E_PORT ?? 4317) : null;
const e2eVars = e2ePort
  ? {
      PUBLIC_ORIGIN: `http://127.0.0.1:${e2ePort}`,
      STRIPE_API_BASE: `http://127.0.0.1:${e2ePort + 100}`,
      STRIPE_SECRET_KEY: "sk_test_fake_provider_for_tests_only",
      STRIPE_WEBHOOK_SECRET: "whsec_fake_provider_for_tests_only",
    }
  : null;

/**
 * Code that four or more routes share but home and login do not load: end-to-end encryption, settings sections,
 * posting, uploads, the message item of conversations, and all of Radix (tabs and radio groups on some screens; the
 * dialog and toast code, which arrives after the first paint: app/components/dialog.tsx). Left out of the "shared"
 * chunk (which every page loads whole), it goes to chunks of the pages that use it: home's first-load JS went from
 * 191 to 178 KB gzip, login's from 176 to 166 (README Decisions "Lighter main pages"), and with Radix out, to 160 and
 * 147 ("Dialogs and toasts load after the first paint").
 */
const SCREEN_CODE =
  /[\\/]app[\\/]features[\\/](?:e2e|settings|safety|posting)[\\/]|[\\/]app[\\/]features[\\/]chat[\\/](?:message-item|stranger-image|encoded-image)\.|[\\/]app[\\/]lib[\\/]upload\.|[\\/]@radix-ui[\\/]/;

/** App code, and the contract's zod-free constants the browser imports (`worker/contract/*.constants.ts`). */
const APP_SCRIPT = /[\\/]app[\\/].*\.tsx?$|[\\/]worker[\\/]contract[\\/][\w-]+\.constants\.ts$/;
/** Its stylesheet would ride along into a chunk every page loads, and every first paint would wait for it. */
const importsStylesheet = (id: string) => /\.css["']/.test(readFileSync(id, "utf8"));

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      ...(stateDir ? { persistState: { path: stateDir } } : {}),
      ...(e2eVars ? { config: (worker) => ({ vars: { ...worker.vars, ...e2eVars } }) } : {}),
    }),
    reactRouter(),
  ],
  // Browser chunks: the framework (React, React Router, i18next) in one file and app code that four or more
  // route chunks share in another, instead of some 27 small files per page. Over HTTP/1.1 and on slow mobile
  // links every file costs a round trip before first paint; Lighthouse mobile performance went from 87–89 to
  // 94 on home, public profile and public chat (tests/bench), and home's first-load JS shrank (less duplication).
  environments: {
    // The worker ships its source maps to Cloudflare (wrangler.toml `upload_source_maps`), never to browsers.
    // Minified: the upload is what Cloudflare limits and cold-starts parse (README Decisions "A minified worker").
    ssr: { build: { sourcemap: true, minify: true } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|html-parse-stringify|void-elements|@babel[\\/]runtime)[\\/]/, priority: 20 },
                // Only app/lib/realtime.ts loads zod (lazily): in a file of its own it is evaluated in a task before
                // the contract's schemas rather than in the same one.
                { name: "zod", test: /node_modules[\\/]zod[\\/]/, priority: 15 },
                // The end-to-end parts pages with messages load with the page (the door to the late crypto,
                // app/features/e2e/late-e2e.ts, encrypted messages' views, sealing a private reply) in one file
                // instead of four small ones. Below "shared" in priority: the app code these import that other pages
                // share stays in "shared" (above it, this group took that code along and every page loaded it).
                { name: "e2e-light", test: /[\\/]app[\\/]features[\\/]e2e[\\/](?:e2e-names|late-e2e|encrypted-view|encrypted-send|send-anyway-dialog)\./, priority: 9 },
                { name: "shared", minShareCount: 4, priority: 10, test: (id: string) => !SCREEN_CODE.test(id) },
                // Small app modules two or three routes share (a hook, a constant, a bar) were each a file of a few
                // hundred bytes: home loaded 17 files. Together they are one file of ~3.6 KB gzip that every page
                // loads; home 17 → 12 files, login 11 → 10, for 2–3 KB more (tests/bench README).
                { name: "shared-small", minShareCount: 2, maxModuleSize: 1500, priority: 10, test: (id: string) => APP_SCRIPT.test(id) && !SCREEN_CODE.test(id) && !importsStylesheet(id) },
              ],
            },
          },
        },
      },
    },
  },
});
