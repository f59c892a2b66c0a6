import { Hono } from "hono";
import { ok } from "../../contract/envelope";
import { FeedbackBody } from "../../contract/home";
import { rateLimit } from "../../http/rate-limit";
import { sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { submitFeedback } from "./feedback.service";

export const feedbackPrivate = new Hono<AppEnv>().post("/cs/feedback/:project", validate("json", FeedbackBody), async (c) => {
  const project = sessionProject(c, c.req.param("project"));
  const member = c.get("member");
  await rateLimit(c.env.RL_WRITE, `feedback:${member.memberId}`);
  return c.json(ok(await submitFeedback(c.env, member, project, c.req.valid("json").message)));
});
