import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { onError, notFound } from "./envelope";
import type { AppEnv } from "./types";
import { accessLog } from "./access-log";
import { queryCost } from "./query-cost";

/** Every Hono app and sub-app of Velvet starts here: one env type, request ids, one error handler. */
export function createApp() {
  const app = new Hono<AppEnv>();
  app.use(requestId({ headerName: "X-Request-ID" }));
  app.use(accessLog);
  app.use(queryCost);
  app.onError(onError);
  return app;
}

export { notFound };
