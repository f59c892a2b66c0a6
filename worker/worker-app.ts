import type { Context } from "hono";
import { api } from "./api";
import { answerStaleSessionsWith } from "./features/session/auth";
import { createApp } from "./http/app";
import { configGuard } from "./http/config-guard";
import { d1Sessions } from "./http/d1-sessions";
import { apiProjectLocator } from "./db/router";
import { notFound } from "./http/envelope";
import { pageCacheControl } from "./http/page-cache-control";
import { cancelUnreadBody } from "./http/plain-address";
import { apiSecurityHeaders, pageSecurityHeaders } from "./http/security-headers";
import type { AppEnv } from "./http/types";
import { routeRoomRequest } from "./rooms";
import { mediaServe } from "./features/media/media-serve.routes";
import { privateMediaServe } from "./features/media/private-media.routes";
import { storageApi } from "./features/media/media.routes";
import { aiOutput } from "./features/ai/ai.routes";
import { appManifest } from "./features/notifications/manifest.routes";

export type PageHandler = (c: Context<AppEnv>) => Promise<Response>;

/**
 * The one worker: API, rooms, then pages. The test entry builds it without pages
 * (vitest cannot load React Router's virtual server build).
 */
export function createWorkerApp(pages?: PageHandler) {
  const app = createApp();
  // Every request's D1 work runs in one D1 session (README Decisions "D1 read replicas through sessions").
  // Its database is the tenant the request names: an API path only in its route's `{project}` segment.
  app.use("*", d1Sessions(apiProjectLocator(() => app.routes)));
  // Before anything else: without its secrets the worker answers every request with 503 (config-guard.ts).
  app.use("*", configGuard);
  app.use(cancelUnreadBody);
  app.use("/api/*", apiSecurityHeaders);
  app.route("/api/v6", api);
  app.route("/api/v7", api);
  app.route("/api/v3", storageApi);
  app.all("/api/*", notFound);
  app.route("/media", mediaServe);
  // Keyed albums' files and private messages' images: checked on every request, never cached.
  app.route("/private-media", privateMediaServe);
  // §7 AI: GET /output/{file} sits outside /api; 404 (envelope) until the image is ready.
  app.route("/output", aiOutput);
  // The tenant's web app manifest (start_url /{project}/home); the service worker itself is a static asset (/sw.js).
  app.route("/", appManifest);

  // Sockets: no header middleware here, it would break the 101 response.
  app.all("/parties/*", async (c) => (await routeRoomRequest(c.req.raw, c.env)) ?? notFound(c));

  if (pages) {
    app.use("*", pageSecurityHeaders);
    app.use("*", pageCacheControl);
    app.all("*", pages);
  }
  answerStaleSessionsWith((request, env, ctx) => app.fetch(request, env, ctx));
  return app;
}

export type WorkerApp = ReturnType<typeof createWorkerApp>;
