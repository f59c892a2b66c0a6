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
});
