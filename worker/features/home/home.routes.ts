import { Hono } from "hono";
import { ok } from "../../contract/envelope";
import { sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { loadDashboard } from "./home.service";

/** GET /core/home/{project}: the home dashboard (§2) for the caller, one batched read. */
export const homePrivate = new Hono<AppEnv>().get("/core/home/:project", async (c) => {
  const project = sessionProject(c, c.req.param("project"));
  return c.json(ok(await loadDashboard(c.env, c.get("member"), project)));
});
