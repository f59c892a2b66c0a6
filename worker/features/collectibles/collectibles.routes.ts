import { Hono } from "hono";
import { ok } from "../../contract/envelope";
import { BuyBody, CollectibleListQuery, DrawDateParam, ListingBody, MintBody } from "../../contract/collectibles";
import { IdParam } from "../../contract/common";
import { AppError } from "../../lib/app-error";
import { rateLimit } from "../../http/rate-limit";
import { sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import * as collectibles from "./collectibles.service";
import * as lottery from "./lottery.service";

/** A path id that is not a positive integer is "not found", like a missing record (never a 500). */
function editionId(raw: string | undefined): number {
  const parsed = IdParam.safeParse(raw);
  if (!parsed.success) throw new AppError("notFound");
  return parsed.data;
}

const wholeCoins = (amount: number) => {
  if (amount % 100 !== 0) throw new AppError("wholeCoinsOnly");
};

/** Paths: worker/contract/collectibles.constants.ts (README Decisions "Collectibles and the daily lottery"). */
export const collectiblesPrivate = new Hono<AppEnv>()
  .get("/sns/collectibles/:project/gas", (c) => {
    sessionProject(c, c.req.param("project"));
    return c.json(ok(collectibles.gas()));
  })
  .get("/sns/collectibles/:project/mine", async (c) => {
    sessionProject(c, c.req.param("project"));
    return c.json(ok(await collectibles.mine(c.env, c.get("member"))));
  })
  .get("/sns/collectibles/:project/listed", validate("query", CollectibleListQuery), async (c) => {
    sessionProject(c, c.req.param("project"));
    return c.json(ok(await collectibles.listed(c.env, c.get("member"), c.req.valid("query").pageSize)));
  })
  .get("/sns/collectibles/:project/history", validate("query", CollectibleListQuery), async (c) => {
    sessionProject(c, c.req.param("project"));
    return c.json(ok(await collectibles.history(c.env, c.get("member"), c.req.valid("query").pageSize)));
  })
  .get("/sns/collectibles/:project/editions/:idEdition", async (c) => {
    sessionProject(c, c.req.param("project"));
    return c.json(ok(await collectibles.edition(c.env, c.get("member"), editionId(c.req.param("idEdition")))));
  })
  .post("/sns/collectibles/:project/mint", validate("json", MintBody), async (c) => {
    sessionProject(c, c.req.param("project"));
    const member = c.get("member");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await collectibles.mint(c.env, member, c.req.valid("json"))));
  })
  .put("/sns/collectibles/:project/editions/:idEdition/listing", validate("json", ListingBody), async (c) => {
    sessionProject(c, c.req.param("project"));
    const member = c.get("member");
    const { amount } = c.req.valid("json");
    wholeCoins(amount);
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await collectibles.list(c.env, member, editionId(c.req.param("idEdition")), amount)));
  })
  .delete("/sns/collectibles/:project/editions/:idEdition/listing", async (c) => {
    sessionProject(c, c.req.param("project"));
    const member = c.get("member");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await collectibles.unlist(c.env, member, editionId(c.req.param("idEdition")))));
  })
  .post("/sns/collectibles/:project/editions/:idEdition/buy", validate("json", BuyBody), async (c) => {
    sessionProject(c, c.req.param("project"));
    const member = c.get("member");
    const body = c.req.valid("json");
    wholeCoins(body.amount);
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await collectibles.buy(c.env, member, editionId(c.req.param("idEdition")), body)));
  })
  .get("/sns/lottery/:project", async (c) => {
    sessionProject(c, c.req.param("project"));
    return c.json(ok(await lottery.lotteryPage(c.env, c.get("member"))));
  })
  .post("/sns/lottery/:project/entries", async (c) => {
    sessionProject(c, c.req.param("project"));
    const member = c.get("member");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await lottery.enter(c.env, member)));
  })
  .get("/sns/lottery/:project/draws/:drawDate", async (c) => {
    sessionProject(c, c.req.param("project"));
    const date = DrawDateParam.safeParse(c.req.param("drawDate"));
    if (!date.success) throw new AppError("notFound");
    return c.json(ok(await lottery.drawDetail(c.env, c.get("member"), date.data)));
  });
