import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// VELVET_STATE_DIR lets the browser tests run against their own fresh local D1/R2/DO state.
const stateDir = process.env.VELVET_STATE_DIR;

export default defineConfig({
  plugins: [
    cloudflare({ viteEnvironment: { name: "ssr" }, ...(stateDir ? { persistState: { path: stateDir } } : {}) }),
    reactRouter(),
  ],
  // Browser chunks: the framework (React, React Router, i18next) in one file and app code that four or more
  // route chunks share in another, instead of some 27 small files per page. Over HTTP/1.1 and on slow mobile
  // links every file costs a round trip before first paint; Lighthouse mobile performance went from 87–89 to
  // 94 on home, public profile and public chat (tests/bench), and home's first-load JS shrank (less duplication).
  environments: {
    // The worker ships its source maps to Cloudflare (wrangler.toml `upload_source_maps`), never to browsers.
    ssr: { build: { sourcemap: true } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|html-parse-stringify|void-elements|@babel[\\/]runtime)[\\/]/, priority: 20 },
                { name: "shared", minShareCount: 4, priority: 10 },
              ],
            },
          },
        },
      },
    },
  },
});
