// Bench-only app (never deployed): the bare React Router page of the pages suite's baseline. The app's build setup
// (vite + @cloudflare/vite-plugin + React Router framework mode, the same client chunk groups), no app code.
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter()],
  environments: {
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
