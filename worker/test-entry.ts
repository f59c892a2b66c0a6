// Worker entry for vitest: the API and rooms without the React Router page build.
import { createWorkerApp } from "./worker-app";
import { runScheduledJobs } from "./scheduled";

export { ChatRoom, MemberInbox, Presence } from "./rooms";

const app = createWorkerApp();

export default {
  fetch: app.fetch,
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env));
  },
} satisfies ExportedHandler<Env>;
