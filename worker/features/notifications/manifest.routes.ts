import { Hono } from "hono";
import { AppError } from "../../lib/app-error";
import { parseProjectCode } from "../../http/tenant";
import type { AppEnv } from "../../http/types";

/**
 * The web app manifest of a tenant (README Decisions "Push that reaches a closed app"): installable, opens at the
 * tenant's home in its own window. Per tenant because `start_url` carries the project code; linked from the root
 * document of every page under /{project}. The same for everyone: it names nobody.
 */
export const appManifest = new Hono<AppEnv>().get("/:projectCode/manifest.webmanifest", (c) => {
  let project: string;
  try {
    project = parseProjectCode(c.req.param("projectCode")).toLowerCase();
  } catch {
    throw new AppError("notFound");
  }
  const manifest = {
    id: `/${project}/home`,
    name: "Velvet",
    short_name: "Velvet",
    start_url: `/${project}/home`,
    scope: "/",
    display: "standalone",
    background_color: "#1a0f1f",
    theme_color: "#1a0f1f",
    icons: [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
  };
  return c.body(JSON.stringify(manifest), 200, {
    "Content-Type": "application/manifest+json; charset=utf-8",
    "Cache-Control": "public, max-age=3600",
    "X-Content-Type-Options": "nosniff",
  });
});
