import { Hono } from "hono";
import { z } from "zod";
import { ok } from "../../contract/envelope";
import { MemberNo, IdParam } from "../../contract/common";
import { BidBody, JoinBody, KeywordQuery, MarketListQuery, SearchQuery, SubmemberBody, type SubmemberList } from "../../contract/market";
import { rateLimit } from "../../http/rate-limit";
import { parseProjectCode, sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import * as hierarchy from "./hierarchy.service";
import * as market from "./market.service";
import * as search from "./search.service";
import * as submembers from "./submembers.service";
import { closedTo } from "../members/profile-access";
import { connectionsHiddenFrom } from "../members/connections-visibility";
import { AppError } from "../../lib/app-error";

const ProjectMember = z.object({ project: z.string(), memberNo: MemberNo });
const ProjectOnly = z.object({ project: z.string() });
const BiddingParam = z.object({ idBiddingLoop: IdParam });

/** Public: a master's sub-member list as a logged-out visitor sees it on a public profile (§6 Visitor). */
export const marketPublic = new Hono<AppEnv>().get("/sns/sub-members/:project/:memberNo", validate("param", ProjectMember), async (c) => {
  const { project, memberNo } = c.req.valid("param");
  const list = await submembers.submemberList(c.env, parseProjectCode(project), memberNo, null);
  // A closed master's sub-members (and join button) are not for those it is closed to (profile-access.ts).
  if (await closedTo(c.env, parseProjectCode(project), memberNo, null)) return c.json(ok({ ...list, subMembers: [], viewer: null }));
  return c.json(ok(await withoutHiddenSubmembers(c.env, parseProjectCode(project), memberNo, null, list)));
});

/**
 * README Decisions "Who sees my connections": a master who hides their connections from this viewer keeps the list
 * (and its count) to themselves; the master's card and the viewer's own join options stay, so the join button works.
 */
async function withoutHiddenSubmembers(env: Env, project: string, memberNo: string, viewerId: string | null, list: SubmemberList): Promise<SubmemberList> {
  if (!(await connectionsHiddenFrom(env, project, memberNo, viewerId))) return list;
  return { ...list, subMembers: [], connectionsHidden: true };
}

/** The hierarchy (sub-members down, masters up) and its history are nothing but connections: hidden is a 403. */
async function refuseHiddenConnections(env: Env, project: string, memberNo: string, viewerId: string) {
  if (await connectionsHiddenFrom(env, project, memberNo, viewerId)) throw new AppError("connectionsHidden");
}

export const marketPrivate = new Hono<AppEnv>()
  // Literal paths before `/:memberNo` so they win.
  .post("/sns/sub-members/:project/join", validate("param", ProjectOnly), validate("json", JoinBody), async (c) => {
    const member = c.get("member");
    sessionProject(c, c.req.valid("param").project);
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await submembers.joinMaster(c.env, member, c.req.valid("json").masterMemberNo, c.executionCtx)));
  })
  .post("/sns/sub-members/:project/free", validate("param", ProjectOnly), validate("json", SubmemberBody), async (c) => {
    const member = c.get("member");
    sessionProject(c, c.req.valid("param").project);
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await submembers.freeSubmember(c.env, member, c.req.valid("json").simpleCode, c.executionCtx)));
  })
  .get("/sns/sub-members/:project/:memberNo", validate("param", ProjectMember), async (c) => {
    const { project, memberNo } = c.req.valid("param");
    const list = await submembers.submemberList(c.env, sessionProject(c, project), memberNo, c.get("member").memberId);
    if (await closedTo(c.env, sessionProject(c, project), memberNo, c.get("member").memberId)) return c.json(ok({ ...list, subMembers: [], viewer: null }));
    return c.json(ok(await withoutHiddenSubmembers(c.env, sessionProject(c, project), memberNo, c.get("member").memberId, list)));
  })
  .post("/sns/game/market/slave", validate("json", SubmemberBody), async (c) => {
    const member = c.get("member");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await market.sellSubmember(c.env, member, c.req.valid("json").simpleCode, c.executionCtx)));
  })
  .get("/sns/hierarchy/:project/:memberNo/history", validate("param", ProjectMember), async (c) => {
    const { project, memberNo } = c.req.valid("param");
    const history = await hierarchy.hierarchyHistory(c.env, sessionProject(c, project), memberNo, c.get("member").memberId);
    await refuseHiddenConnections(c.env, sessionProject(c, project), memberNo, c.get("member").memberId);
    if (await closedTo(c.env, sessionProject(c, project), memberNo, c.get("member").memberId)) return c.json(ok([]));
    return c.json(ok(history));
  })
  .get("/sns/hierarchy/:project/:memberNo", validate("param", ProjectMember), async (c) => {
    const { project, memberNo } = c.req.valid("param");
    const tree = await hierarchy.hierarchy(c.env, sessionProject(c, project), memberNo, c.get("member").memberId);
    await refuseHiddenConnections(c.env, sessionProject(c, project), memberNo, c.get("member").memberId);
    if (await closedTo(c.env, sessionProject(c, project), memberNo, c.get("member").memberId)) return c.json(ok({ profile: tree.profile, subNodes: [], masters: [] }));
    return c.json(ok(tree));
  })
  .get("/sns/market/:project/biddings", validate("param", ProjectOnly), validate("query", MarketListQuery), async (c) => {
    const project = sessionProject(c, c.req.valid("param").project);
    return c.json(ok(await market.biddingCards(c.env, project, c.get("member").memberId, c.req.valid("query").pageSize)));
  })
  .get("/sns/bidding-loops/:idBiddingLoop", validate("param", BiddingParam), async (c) => {
    const member = c.get("member");
    return c.json(ok(await market.getBiddingLoop(c.env, member.projectCode, c.req.valid("param").idBiddingLoop, member.memberId)));
  })
  .post("/sns/bidding-loops", validate("json", BidBody), async (c) => {
    const member = c.get("member");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await market.createBid(c.env, member, c.req.valid("json").targetMemberNo, c.executionCtx)));
  })
  .get("/sns/search/popular-keyword/:project", validate("param", ProjectOnly), validate("query", KeywordQuery), async (c) => {
    const project = sessionProject(c, c.req.valid("param").project);
    return c.json(ok(await search.popularKeywords(c.env, project, c.req.valid("query").pageSize)));
  })
  .get("/sns/search/:project", validate("param", ProjectOnly), validate("query", SearchQuery), async (c) => {
    const member = c.get("member");
    sessionProject(c, c.req.valid("param").project);
    const { keyword, pageSize } = c.req.valid("query");
    return c.json(ok(await search.searchMembers(c.env, member, keyword, pageSize)));
  });
