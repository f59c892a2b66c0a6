import { createRequestHandler } from "react-router";
import { createWorkerApp } from "./worker-app";
import { runScheduledJobs } from "./scheduled";

export { ChatRoom, MemberInbox, Presence } from "./rooms";

// Built once at module scope (stack notes): the React Router server build of app/.
const handleRequest = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

const app = createWorkerApp((c) =>
  handleRequest(c.req.raw, {
    cloudflare: { env: c.env, ctx: c.executionCtx as unknown as ExecutionContext },
    // Loaders call the API in-process: same handlers as the browser, no network hop.
    api: async (request: Request) => app.fetch(request, c.env, c.executionCtx),
    nonce: c.get("secureHeadersNonce") ?? "",
  }),
);

export default {
  fetch: app.fetch,
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env));
  },
} satisfies ExportedHandler<Env>;
