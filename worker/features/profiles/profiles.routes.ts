import { Hono, type Context } from "hono";
import { z } from "zod";
import { ok } from "../../contract/envelope";
import { IdParam, MemberNo, numeric } from "../../contract/common";
import {
  AddCharacterBody,
  AllQuery,
  CharacterUsersQuery,
  CharactersQuery,
  HotQuery,
  ListQuery,
  ProfilePatch,
  SearchQuery,
  ZODIAC_SIGNS,
  ZodiacQuery,
} from "../../contract/profiles";
import { AppError } from "../../lib/app-error";
import { limitPerMember, rateLimit, rateLimitAddress } from "../../http/rate-limit";
import { parseProjectCode, requireSelf, sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { isBlockedBetween } from "../members/visibility";
import { viewerFor, type Viewer } from "../members/profile-summary";
import { closedTo, seenAsVisitor } from "../members/profile-access";
import * as svc from "./profiles.service";
import { GENDERS_FOR_LOOK_FOR, allProfiles, discovery, hotProfiles, languageOfLocale, listProfiles, membersCount } from "./profile-discovery";
import { visitorsOf } from "./visitors";
import { actionStatsFor, toActionStats } from "../members/action-stats";
import { addCharacter, characterUsers, charactersFor, removeCharacter } from "./characters";
import { profilePage, profilesFeed } from "./profile-page";
import { lastBiddingOf } from "../market/market.service";

type Ctx = Context<AppEnv>;
/** How a route learns its tenant and viewer: from the path alone (public) or checked against the session (private). */
/** `ids` is the same without reading the viewer's profile, for routes that read it in their own batch. */
type Scope = ((c: Ctx, rawProject: string | undefined) => Promise<{ project: string; viewer: Viewer }>) & {
  ids: (c: Ctx, rawProject: string | undefined) => { project: string; viewerId: string | null };
};

const publicScope: Scope = Object.assign(async (_c: Ctx, raw: string | undefined) => ({ project: parseProjectCode(raw), viewer: null }), {
  ids: (_c: Ctx, raw: string | undefined) => ({ project: parseProjectCode(raw), viewerId: null }),
});
const privateScope: Scope = Object.assign(
  async (c: Ctx, raw: string | undefined) => ({ project: sessionProject(c, raw), viewer: await viewerFor(c.env, c.get("member").memberId) }),
  { ids: (c: Ctx, raw: string | undefined) => ({ project: sessionProject(c, raw), viewerId: c.get("member").memberId }) },
);

const GenderParam = z.object({ project: z.string(), gender: numeric().pipe(z.number().int().min(1).max(6)) });
// A path segment must be the digit itself: `z.coerce` would read " " or "" as lookFor 0 (found by the hostile-input suite).
const RelatedParam = z.object({ project: z.string(), lang: z.string().max(10), lookFor: z.string().regex(/^[0-6]$/).transform(Number) });
const CodeParam = z.object({ project: z.string(), simpleCode: MemberNo });
const CharacterParam = z.object({ project: z.string(), idCharacter: IdParam });

async function targetByCode(c: Ctx, project: string, simpleCode: string, viewer: Viewer) {
  const target = await svc.profileByCode(c.env, project, simpleCode);
  if (!target) throw new AppError("notFound");
  if (viewer && viewer.memberId !== target.memberId && (await isBlockedBetween(c.env, viewer.memberId, target.memberId))) throw new AppError("notFound");
  return target;
}

/**
 * A view counts (page views rank the hot lists, a member's view leaves a footprint): visitors spend a budget per
 * address, members per member, so a loop cannot push anyone up the lists (README "Rate limits").
 */
async function limitViews(c: Context<AppEnv>, viewerId: string | null) {
  if (viewerId) await rateLimit(c.env.RL_WRITE, `view:${viewerId}`);
  else await rateLimitAddress(c, "view");
}

/** Discovery lists, public profiles, footprints, activity and preferences: readable with or without a session. */
function readRoutes(scope: Scope) {
  return new Hono<AppEnv>()
    .get("/core/profiles/:project/hot", validate("query", HotQuery), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const q = c.req.valid("query");
      return c.json(ok(await hotProfiles(c.env, project, viewer, q.pageSize, q.locale)));
    })
    .get("/core/profiles/:project/intro", validate("query", ListQuery(100)), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const limit = c.req.valid("query").pageSize;
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.intro(limit))));
    })
    .get("/core/profiles/:project/intro/seven", async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.introSeven())));
    })
    .get("/core/profiles/:project/last-chat-message", validate("query", ListQuery(30)), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const limit = c.req.valid("query").pageSize;
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.lastChat(limit))));
    })
    .get("/core/profiles/:project/last-access", validate("query", ListQuery(30)), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const limit = c.req.valid("query").pageSize;
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.lastAccess(limit))));
    })
    .get("/core/profiles/:project/new", validate("query", ListQuery(30)), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const limit = c.req.valid("query").pageSize;
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.newest(limit))));
    })
    .get("/core/profiles/:project/birthday", validate("query", ListQuery(20, 20)), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      // SECURITY.md "What a visitor sees": whose birthday is today is for members.
      if (!viewer) return c.json(ok([]));
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.birthday(c.req.valid("query").pageSize))));
    })
    .get("/core/profiles/:project/search", validate("query", SearchQuery), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const q = c.req.valid("query");
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.search(project, q.keyword, q.pageSize))));
    })
    .get("/core/profiles/:project/multi-gender/:gender", validate("param", GenderParam), validate("query", ListQuery(20, 99999)), async (c) => {
      const { project, viewer } = await scope(c, c.req.valid("param").project);
      const gender = c.req.valid("param").gender;
      const limit = c.req.valid("query").pageSize;
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.multiGender([gender], limit))));
    })
    .get("/core/profiles/:project/zodiac-sign", validate("query", ZodiacQuery), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const q = c.req.valid("query");
      let sign = q.sign?.toLowerCase();
      if (!sign && viewer) sign = (await svc.profileByMemberId(c.env, viewer.memberId))?.zodiacSign ?? undefined;
      if (!sign || !(ZODIAC_SIGNS as readonly string[]).includes(sign)) throw new AppError("badRequest", { message: "Unknown zodiac sign" });
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.zodiac(sign, q.pageSize))));
    })
    .get("/core/profiles/:project/all", validate("query", AllQuery), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const q = c.req.valid("query");
      return c.json(ok(await allProfiles(c.env, project, viewer, q.lookFor, q.pageSize)));
    })
    // The profiles feed's and the public profile page's own calls (beyond the spec): see profile-page.ts.
    .get("/core/profiles/:project/feed", async (c) => {
      const { project, viewerId } = scope.ids(c, c.req.param("project"));
      return c.json(ok(await profilesFeed(c.env, project, viewerId)));
    })
    .get("/core/profiles/:project/page/:simpleCode", validate("param", CodeParam), async (c) => {
      const { project, viewerId } = scope.ids(c, c.req.valid("param").project);
      await limitViews(c, viewerId);
      return c.json(ok(await profilePage(c.env, project, c.req.valid("param").simpleCode, viewerId)));
    })
    .get("/core/profiles/:project/member/:simpleCode", validate("param", CodeParam), async (c) => {
      const { project, viewerId } = scope.ids(c, c.req.valid("param").project);
      await limitViews(c, viewerId);
      return c.json(ok(await svc.viewProfile(c.env, project, svc.locate.byCode(c.req.valid("param").simpleCode), viewerId)));
    })
    .get("/sns/related-profiles/:project/language/:lang/:lookFor", validate("param", RelatedParam), validate("query", ListQuery(20, 100)), async (c) => {
      const params = c.req.valid("param");
      const { project, viewer } = await scope(c, params.project);
      const language = languageOfLocale(params.lang);
      if (!language) throw new AppError("badRequest", { message: "Unknown language" });
      return c.json(ok(await listProfiles(c.env, project, viewer, discovery.related(language, params.lookFor, c.req.valid("query").pageSize))));
    })
    .get("/core/members/count/:project", async (c) => {
      const { project } = await scope(c, c.req.param("project"));
      return c.json(ok({ count: await membersCount(c.env, project) }));
    })
    // Related visitors by code: the footprints on a public profile, newest first.
    .get("/sns/visitors/:project/code/:simpleCode", validate("param", CodeParam), validate("query", ListQuery(30, 100)), async (c) => {
      const { project, viewer } = await scope(c, c.req.valid("param").project);
      const target = await targetByCode(c, project, c.req.valid("param").simpleCode, viewer);
      // Who visited whom is not for visitors, nor a closed profile's for those it is closed to (profile-access.ts).
      if (!viewer || (await closedTo(c.env, project, target.simpleCode, viewer.memberId))) return c.json(ok([]));
      // Nor a member's who approves followers, for members they have not accepted (README Decisions "Approve followers").
      if (await seenAsVisitor(c.env, project, target.simpleCode, viewer.memberId)) return c.json(ok([]));
      return c.json(ok(await visitorsOf(c.env, target.memberId, viewer, c.req.valid("query").pageSize)));
    })
    .get("/sns/actions/:project/:simpleCode", validate("param", CodeParam), async (c) => {
      const { project, viewer } = await scope(c, c.req.valid("param").project);
      const target = await targetByCode(c, project, c.req.valid("param").simpleCode, viewer);
      if (await closedTo(c.env, project, target.simpleCode, viewer?.memberId ?? null)) return c.json(ok(toActionStats([])));
      return c.json(ok(await actionStatsFor(c.env, target.memberId)));
    })
    .get("/sns/characters/:project", validate("query", CharactersQuery), async (c) => {
      const { project, viewer } = await scope(c, c.req.param("project"));
      const memberNo = c.req.valid("query").memberNo;
      let targetId = memberNo ? (await targetByCode(c, project, memberNo, viewer)).memberId : (viewer?.memberId ?? null);
      // A closed profile's preferences: the catalogue with nothing checked (profile-access.ts).
      if (memberNo && (await closedTo(c.env, project, memberNo, viewer?.memberId ?? null))) targetId = null;
      return c.json(ok(await charactersFor(c.env, project, targetId, viewer?.memberId ?? null)));
    })
    .get("/sns/characters/:project/:idCharacter/users", validate("param", CharacterParam), validate("query", CharacterUsersQuery), async (c) => {
      const { project, viewer } = await scope(c, c.req.valid("param").project);
      const q = c.req.valid("query");
      return c.json(ok(await characterUsers(c.env, project, c.req.valid("param").idCharacter, viewer, q.page, q.pageSize)));
    });
}

export const profilesPublic = readRoutes(publicScope);

const MemberParam = z.object({ memberId: z.string().min(1).max(64) });

export const profilesPrivate = new Hono<AppEnv>()
  // Literal paths first so `:memberId` does not swallow them.
  .get("/core/profiles/pick-for-you", validate("query", ListQuery(20, 100)), async (c) => {
    const member = c.get("member");
    const viewer = await viewerFor(c.env, member.memberId);
    const me = await svc.profileByMemberId(c.env, member.memberId);
    const genders = me?.lookFor ? GENDERS_FOR_LOOK_FOR[me.lookFor] ?? [] : [];
    const limit = c.req.valid("query").pageSize;
    const options = genders.length ? discovery.multiGender(genders, limit, true) : { ...discovery.hot(limit), excludeSelf: true };
    const picks = await listProfiles(c.env, member.projectCode, viewer, options);
    return c.json(ok(picks));
  })
  // A mark reaches another member (README "Rate limits", RL_SOCIAL); it weighs only as moderation decides.
  .on(["PUT", "PATCH", "POST"], "/core/profiles/unqualified/:idProfile", limitPerMember("RL_SOCIAL", "unqualify"), validate("param", z.object({ idProfile: IdParam })), async (c) => {
    const member = c.get("member");
    return c.json(ok(await svc.markUnqualified(c.env, member.memberId, member.projectCode, c.req.valid("param").idProfile)));
  })
  .get("/core/profiles/:memberId", validate("param", MemberParam), async (c) => {
    const member = c.get("member");
    const memberId = c.req.valid("param").memberId;
    if (memberId === member.memberId) {
      const own = svc.ownProfile((await svc.profileByMemberId(c.env, memberId))!);
      return c.json(ok({ ...own, lastBidding: await lastBiddingOf(c.env, member.projectCode, memberId) }));
    }
    // Another member's account id: the public subset, same tenant only.
    return c.json(ok(await svc.viewProfile(c.env, member.projectCode, svc.locate.byMemberId(memberId), member.memberId)));
  })
  .patch("/core/profiles/:memberId", validate("json", ProfilePatch), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await svc.updateProfile(c.env, member.memberId, c.req.valid("json"))));
  })
  // The caller's own recent visitors (§2 home drawer): newest first with date and time.
  .get("/sns/visitors/:memberId", validate("query", ListQuery(30, 100)), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const viewer = await viewerFor(c.env, member.memberId);
    return c.json(ok(await visitorsOf(c.env, member.memberId, viewer, c.req.valid("query").pageSize)));
  })
  .post("/sns/characters/:memberId", validate("json", AddCharacterBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    await addCharacter(c.env, member.projectCode, member.memberId, c.req.valid("json").idCharacter);
    return c.json(ok(await charactersFor(c.env, member.projectCode, member.memberId, member.memberId)));
  })
  .delete("/sns/characters/:memberId/:idCharacter", validate("param", z.object({ memberId: z.string(), idCharacter: IdParam })), async (c) => {
    const member = requireSelf(c, c.req.valid("param").memberId);
    await removeCharacter(c.env, member.projectCode, member.memberId, c.req.valid("param").idCharacter);
    return c.json(ok(await charactersFor(c.env, member.projectCode, member.memberId, member.memberId)));
  })
  .route("/", readRoutes(privateScope));

