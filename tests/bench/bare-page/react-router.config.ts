import type { Config } from "@react-router/dev/config";

// The app's settings (react-router.config.ts at the repository root); the bench builds into its own folder.
export default {
  ssr: true,
  future: { v8_viteEnvironmentApi: true },
  routeDiscovery: { mode: "initial" },
  buildDirectory: process.env.BARE_PAGE_BUILD ?? "build",
} satisfies Config;
