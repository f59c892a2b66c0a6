import { Hono, type Context } from "hono";
import { z } from "zod";
import { ok } from "../../contract/envelope";
import { IdParam } from "../../contract/common";
import {
  BlockBody,
  FollowApprovalBody,
  GeolocationBody,
  GuestbookBody,
  LeaveMessageBody,
  MemberNoParam,
  MuteBody,
  NearbyQuery,
  PageQuery,
  ReadNotificationsBody,
  ReportBody,
  SettingsBody,
  TargetBody,
} from "../../contract/social";
import { limitPerMember } from "../../http/rate-limit";
import { requireSelf, sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import * as blocks from "./blocks.service";
import * as flame from "../flame/flame.service";
import { followInfo } from "./follow-info";
import * as followRequests from "./follow-requests.service";
import * as geo from "./geo.service";
import * as graph from "./graph.service";
import * as guestbook from "./guestbook.service";
import * as inbox from "./inbox.service";
import * as reports from "./reports.service";
import { postingStatus } from "../members/posting-rules";

/** What services need from a request: env, the caller and a way to finish work after the response. */
const ctxOf = (c: Context<AppEnv>) => ({
  env: c.env,
  member: c.get("member"),
  waitUntil: (promise: Promise<unknown>) => {
    const guarded = promise.catch((error) => console.warn(JSON.stringify({ level: "warn", message: "background task failed", error: String(error) })));
    try {
      c.executionCtx.waitUntil(guarded);
    } catch {
      // In-process calls (page loaders) have no execution context; the promise still runs.
    }
  },
});
const tenant = (c: Context<AppEnv>) => c.get("member").projectCode;
/** Each call that reaches another member spends the caller's budget for that action (README "Rate limits"). */
const social = (action: string) => limitPerMember("RL_SOCIAL", action);
const IdBlockParam = z.object({ idBlock: IdParam });
const IdGuestbookParam = z.object({ idGuestbook: IdParam });
const FriendListQuery = PageQuery.extend({ status: z.enum(["friends", "incoming", "requested"]).default("friends") });

/** §7 Social: every route needs a session (blocks are per viewer, so nothing here is anonymous). */
export const socialPrivate = new Hono<AppEnv>()
  // ── follow ──
  .get("/core/follows/:memberNo", validate("param", MemberNoParam), async (c) =>
    c.json(ok(await followInfo(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  .post("/core/follows/:memberNo", social("follow"), validate("param", MemberNoParam), async (c) => c.json(ok(await graph.follow(ctxOf(c), tenant(c), c.req.valid("param").memberNo))))
  .delete("/core/follows/:memberNo", social("follow"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await graph.unfollow(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  .get("/core/following/:memberId", validate("query", PageQuery), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const q = c.req.valid("query");
    return c.json(ok(await graph.followList(c.env, member, "following", q.pageSize, q.before)));
  })
  .get("/core/followers/:memberId", validate("query", PageQuery), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const q = c.req.valid("query");
    return c.json(ok(await graph.followList(c.env, member, "followers", q.pageSize, q.before)));
  })
  // Soft block: remove one of my followers, silently (README Decisions "Safety controls").
  .delete("/core/followers/:memberNo", social("follow"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await graph.removeFollower(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  // ── approve followers (README Decisions "Approve followers"): the owner's setting and requests ──
  .get("/core/follow-approval/:memberId", async (c) => c.json(ok(await followRequests.getFollowApproval(c.env, requireSelf(c, c.req.param("memberId"))))))
  .put("/core/follow-approval/:memberId", validate("json", FollowApprovalBody), async (c) =>
    c.json(ok(await followRequests.putFollowApproval(c.env, requireSelf(c, c.req.param("memberId")), c.req.valid("json")))),
  )
  .get("/core/follow-requests", validate("query", PageQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await followRequests.listFollowRequests(c.env, c.get("member"), q.pageSize, q.before)));
  })
  .post("/core/follow-requests/:memberNo/accept", social("follow"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await followRequests.acceptFollowRequest(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  .post("/core/follow-requests/:memberNo/decline", social("follow"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await followRequests.declineFollowRequest(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  // The requester withdraws their own pending request.
  .delete("/core/follow-requests/:memberNo", social("follow"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await followRequests.cancelFollowRequest(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  // ── friends ──
  .get("/core/friends/status/:memberNo", validate("param", MemberNoParam), async (c) =>
    c.json(ok(await graph.friendStatus(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  .get("/core/friends", validate("query", FriendListQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await graph.friendList(c.env, c.get("member"), q.status, q.pageSize, q.before)));
  })
  .post("/core/friends/request", social("friend"), validate("json", TargetBody), async (c) => c.json(ok(await graph.requestFriend(ctxOf(c), tenant(c), c.req.valid("json").targetMemberNo))))
  .post("/core/friends/accept", social("friend"), validate("json", TargetBody), async (c) => c.json(ok(await graph.acceptFriend(ctxOf(c), tenant(c), c.req.valid("json").targetMemberNo))))
  .post("/core/friends/reject", social("friend"), validate("json", TargetBody), async (c) =>
    c.json(ok(await graph.rejectFriend(c.env, tenant(c), c.get("member"), c.req.valid("json").targetMemberNo))),
  )
  .delete("/core/friends/:memberNo", social("friend"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await graph.removeFriend(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  // ── favourites ──
  .get("/core/favourites", validate("query", PageQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await graph.favouriteList(c.env, c.get("member"), q.pageSize, q.before)));
  })
  .post("/core/favourites", social("favourite"), validate("json", TargetBody), async (c) =>
    c.json(ok(await graph.addFavourite(c.env, tenant(c), c.get("member"), c.req.valid("json").targetMemberNo))),
  )
  .delete("/core/favourites/:memberNo", social("favourite"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await graph.removeFavourite(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  // ── blocks (§7: GET all, POST {targetMemberNo}, DELETE by idBlock, count) ──
  .get("/core/blocks/count", async (c) => c.json(ok(await blocks.myBlockCount(c.env, c.get("member")))))
  .get("/core/blocks/count/:memberNo", validate("param", MemberNoParam), async (c) =>
    c.json(ok(await blocks.blockCountFor(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  .get("/core/blocks", validate("query", PageQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await blocks.blockList(c.env, c.get("member"), q.pageSize, q.before)));
  })
  .post("/core/blocks", social("block"), validate("json", BlockBody), async (c) => {
    const body = c.req.valid("json");
    return c.json(ok(await blocks.block(ctxOf(c), tenant(c), body.targetMemberNo, body.duration, body.alsoNewAccounts)));
  })
  .delete("/core/blocks/:idBlock", social("block"), validate("param", IdBlockParam), async (c) => c.json(ok(await blocks.unblock(c.env, c.get("member"), c.req.valid("param").idBlock))))
  // ── mutes and reports ──
  .get("/core/mutes", validate("query", PageQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await blocks.muteList(c.env, c.get("member"), q.pageSize, q.before)));
  })
  .post("/core/mutes", social("mute"), validate("json", MuteBody), async (c) => {
    const body = c.req.valid("json");
    return c.json(ok(await blocks.mute(c.env, tenant(c), c.get("member"), body.targetMemberNo, body.duration)));
  })
  .delete("/core/mutes/:memberNo", social("mute"), validate("param", MemberNoParam), async (c) =>
    c.json(ok(await blocks.unmute(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  .post("/core/reports", social("report"), validate("json", ReportBody), async (c) => {
    const body = c.req.valid("json");
    const item = body.kind && body.itemId ? { kind: body.kind, itemId: body.itemId } : null;
    return c.json(ok(await reports.report(c.env, tenant(c), c.get("member"), body.targetMemberNo, body.reason, item)));
  })
  // ── posting rules: what the member's composers show before sending (README Decisions "Posting rules")
  .get("/core/posting-status", async (c) => c.json(ok(await postingStatus(c.env, c.get("member").memberId))))
  // ── guestbook and leave message ──
  .get("/core/guestbooks/counts/:memberId", async (c) => c.json(ok(await guestbook.guestbookCounts(c.env, requireSelf(c, c.req.param("memberId"))))))
  .get("/core/guestbooks/history/:memberNo", validate("param", MemberNoParam), validate("query", PageQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await guestbook.guestbookHistory(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo, q.pageSize, q.before)));
  })
  .get("/core/guestbooks/:memberId", validate("query", PageQuery), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const q = c.req.valid("query");
    return c.json(ok(await guestbook.myGuestbook(c.env, member, q.pageSize, q.before)));
  })
  .post("/core/guestbooks/:memberNo", validate("param", MemberNoParam), validate("json", GuestbookBody), async (c) =>
    c.json(ok(await guestbook.writeGuestbook(ctxOf(c), tenant(c), c.req.valid("param").memberNo, c.req.valid("json").message, "reply"))),
  )
  .delete("/core/guestbooks/:idGuestbook", validate("param", IdGuestbookParam), async (c) =>
    c.json(ok(await guestbook.deleteGuestbook(c.env, c.get("member"), c.req.valid("param").idGuestbook))),
  )
  .post("/core/leave-message", validate("json", LeaveMessageBody), async (c) => {
    const body = c.req.valid("json");
    return c.json(ok(await guestbook.writeGuestbook(ctxOf(c), tenant(c), body.code, body.text, "leave")));
  })
  // ── notifications tab, settings, door-bell, actions ──
  .get("/core/notifications/unread-count", async (c) => c.json(ok({ count: (await inbox.unreadNotificationCount(c.env, c.get("member"))).count })))
  .get("/core/notifications", validate("query", PageQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await inbox.listNotifications(c.env, c.get("member"), q.pageSize, q.before)));
  })
  .post("/core/notifications/read", validate("json", ReadNotificationsBody), async (c) =>
    c.json(ok(await inbox.markNotificationsRead(c.env, c.get("member"), c.req.valid("json").ids))),
  )
  .delete("/core/notifications", async (c) => c.json(ok(await inbox.clearNotifications(c.env, c.get("member")))))
  .get("/core/social-settings", async (c) => c.json(ok(await inbox.getSettings(c.env, c.get("member")))))
  .put("/core/social-settings", validate("json", SettingsBody), async (c) => c.json(ok(await inbox.putSettings(c.env, c.get("member"), c.req.valid("json")))))
  .post("/core/door-bell/check", async (c) => c.json(ok(await inbox.doorBell(c.env, c.get("member")))))
  .get("/core/actions/:memberNo", validate("param", MemberNoParam), async (c) =>
    c.json(ok(await inbox.memberActions(c.env, tenant(c), c.get("member"), c.req.valid("param").memberNo))),
  )
  // ── geolocation and nearby ──
  .get("/core/geolocation/:project/nearby", validate("query", NearbyQuery), async (c) => {
    const project = sessionProject(c, c.req.param("project"));
    return c.json(ok(await geo.nearby(c.env, project, c.get("member"), c.req.valid("query").pageSize)));
  })
  .get("/core/geolocation/:memberId", async (c) => c.json(ok(await geo.getGeolocation(c.env, requireSelf(c, c.req.param("memberId"))))))
  .put("/core/geolocation/:memberId", validate("json", GeolocationBody), async (c) =>
    c.json(ok(await geo.putGeolocation(c.env, requireSelf(c, c.req.param("memberId")), c.req.valid("json")))),
  )
  // §7 "update with upper-case project code": the same update addressed by tenant.
  .put("/core/geolocation/:project/:memberId", validate("json", GeolocationBody), async (c) => {
    sessionProject(c, c.req.param("project"));
    return c.json(ok(await geo.putGeolocation(c.env, requireSelf(c, c.req.param("memberId")), c.req.valid("json"))));
  })
  .delete("/core/geolocation/:memberId", async (c) => c.json(ok(await geo.clearGeolocation(c.env, requireSelf(c, c.req.param("memberId"))))))
  // ── flame and the verified-only basement ──
  .get("/core/basement", validate("query", NearbyQuery), async (c) => c.json(ok(await flame.basement(c.env, c.get("member"), c.req.valid("query").pageSize))))
  .get("/core/flame/:project/last", async (c) => c.json(ok(await flame.lastFlame(c.env, sessionProject(c, c.req.param("project")), c.get("member")))))
  .post("/core/flame/:project/delivery", validate("json", TargetBody), async (c) => {
    const project = sessionProject(c, c.req.param("project"));
    return c.json(ok(await flame.deliverFlame(ctxOf(c), project, c.req.valid("json").targetMemberNo)));
  })
  .post("/core/flame/:project/approve", validate("json", TargetBody), async (c) => {
    const project = sessionProject(c, c.req.param("project"));
    return c.json(ok(await flame.approveVerified(ctxOf(c), project, c.req.valid("json").targetMemberNo)));
  })
  // README Decisions "Verification": a member asks once (RL_SOCIAL: it reaches the holder); the holder lists requests.
  .get("/core/flame/:project/verification", async (c) => c.json(ok(await flame.myVerification(c.env, sessionProject(c, c.req.param("project")), c.get("member")))))
  .post("/core/flame/:project/verification", limitPerMember("RL_SOCIAL", "verification"), async (c) => {
    const project = sessionProject(c, c.req.param("project"));
    return c.json(ok(await flame.requestVerification(ctxOf(c), project)));
  })
  .get("/core/flame/:project/requests", async (c) => c.json(ok(await flame.openRequests(c.env, sessionProject(c, c.req.param("project")), c.get("member")))));
