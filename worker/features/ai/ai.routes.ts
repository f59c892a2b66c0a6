import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { ok } from "../../contract/envelope";
import { AiImagesQuery, AiPromptBody } from "../../contract/ai";
import { SESSION_COOKIE } from "../../contract/session";
import { requireSession } from "../session/auth";
import { notFound } from "../../http/envelope";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import type { SessionMember } from "../../lib/session-member";
import { listImages, outputObject, requireAiMember, startImage } from "./ai.service";

/**
 * §7 puts the AI calls under /public, yet only kycStatus 9 members may use them (§6). So these routes
 * accept the usual session credentials optionally: when present they are checked exactly like a private
 * call (bad or expired → 100003, cookie writes need our Origin); without any, the caller is a visitor,
 * who is not a kycStatus 9 member, so the answer is 403 like any other member below kycStatus 9.
 */
const optionalSession = createMiddleware<AppEnv>(async (c, next) => {
  const presented =
    c.req.header("X-Access-Token") || c.req.header("X-Member-ID") || c.req.header("Authorization") || getCookie(c, SESSION_COOKIE);
  if (presented) return requireSession(c, next);
  await next();
});

const caller = (c: { var: { member?: SessionMember } }) => requireAiMember(c.var.member);

export const aiPublic = new Hono<AppEnv>()
  .post("/partner/ai/image/actor/test_male", optionalSession, validate("json", AiPromptBody), async (c) => {
    const member = caller(c);
    const { image, run } = await startImage(c.env, member, c.req.valid("json").prompt);
    c.executionCtx.waitUntil(run());
    return c.json(ok(image));
  })
  .get("/partner/ai/images", optionalSession, validate("query", AiImagesQuery), async (c) => {
    const member = caller(c);
    return c.json(ok(await listImages(c.env, member, c.req.valid("query").pageSize)));
  });

/** GET /output/{file}: mounted outside /api (§7). 404 until the image is ready, then the image. */
export const aiOutput = new Hono<AppEnv>().get("/:file", async (c) => {
  const object = await outputObject(c.env, c.req.param("file"));
  if (!object) {
    const res = notFound(c);
    res.headers.set("Cache-Control", "no-store");
    return res;
  }
  const file = c.req.param("file");
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? (file.endsWith(".png") ? "image/png" : "image/jpeg"),
      "Cache-Control": "private, max-age=31536000, immutable",
      ETag: object.httpEtag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
});
