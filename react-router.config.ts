import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: { v8_viteEnvironmentApi: true },
  // The whole route manifest comes with the page (a few KB): with lazy discovery, the links a page renders made it
  // fetch /__manifest after hydration and re-render every route with the patched routes (~0.1 s on a slow phone).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
