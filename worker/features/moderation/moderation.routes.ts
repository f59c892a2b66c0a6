import { Hono, type Context } from "hono";
import { z } from "zod";
import { ok } from "../../contract/envelope";
import { IdParam, MemberNo } from "../../contract/common";
import { AppealBody, AppealDecisionBody, DecisionBody, OperatorBody } from "../../contract/moderation";
import { limitPerMember } from "../../http/rate-limit";
import { sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import * as appeals from "./appeals.service";
import * as decisions from "./decisions.service";
import * as operators from "./operators.service";

const ProjectParam = z.object({ project: z.string() });
const MemberParam = ProjectParam.extend({ memberNo: MemberNo });
const ActionParam = ProjectParam.extend({ idAction: IdParam });
/** Decisions and appeals reach another member: the social budget (README "Rate limits"). */
const moderate = limitPerMember("RL_SOCIAL", "moderate");

/** The caller as an operator of `{project}`; anyone else, and another tenant's operator, gets 404. */
async function operatorOf(c: Context<AppEnv>) {
  const member = c.get("member");
  sessionProject(c, c.req.param("project"));
  await operators.requireOperator(c.env, member);
  return member;
}

/** README Decisions "Moderation": the tenant's queue for its operators, and the affected member's one appeal. */
export const moderationPrivate = new Hono<AppEnv>()
  .get("/core/moderation/:project/role", validate("param", ProjectParam), async (c) => {
    const member = c.get("member");
    sessionProject(c, c.req.valid("param").project);
    return c.json(ok({ operator: await operators.isOperator(c.env, member.projectCode, member.memberId) }));
  })
  .post("/core/moderation/:project/appeals", moderate, validate("param", ProjectParam), validate("json", AppealBody), async (c) => {
    sessionProject(c, c.req.valid("param").project);
    const body = c.req.valid("json");
    return c.json(ok(await appeals.appeal(c.env, c.get("member"), body.idAction, body.text)));
  })
  // ── operators only ──
  .get("/core/moderation/:project/queue", validate("param", ProjectParam), async (c) => c.json(ok(await decisions.queue(c.env, await operatorOf(c)))))
  .post("/core/moderation/:project/members/:memberNo/decisions", moderate, validate("param", MemberParam), validate("json", DecisionBody), async (c) => {
    const operator = await operatorOf(c);
    return c.json(ok(await decisions.decide(c.env, operator, c.req.valid("param").memberNo, c.req.valid("json"))));
  })
  .post("/core/moderation/:project/appeals/:idAction/decision", moderate, validate("param", ActionParam), validate("json", AppealDecisionBody), async (c) => {
    const operator = await operatorOf(c);
    return c.json(ok(await appeals.decideAppeal(c.env, operator, c.req.valid("param").idAction, c.req.valid("json").grant)));
  })
  .post("/core/moderation/:project/operators", moderate, validate("param", ProjectParam), validate("json", OperatorBody), async (c) => {
    const operator = await operatorOf(c);
    return c.json(ok(await operators.grantOperator(c.env, operator, c.req.valid("json").memberNo)));
  })
  // README Decisions "Verification": the tenant's flame holder and the AI room come from its operators.
  .post("/core/moderation/:project/flame", moderate, validate("param", ProjectParam), validate("json", OperatorBody), async (c) => {
    const operator = await operatorOf(c);
    return c.json(ok(await operators.makeFlameHolder(c.env, operator, c.req.valid("json").memberNo)));
  })
  .post("/core/moderation/:project/members/:memberNo/ai-room", moderate, validate("param", MemberParam), async (c) => {
    const operator = await operatorOf(c);
    return c.json(ok(await operators.grantAiRoom(c.env, operator, c.req.valid("param").memberNo)));
  });
