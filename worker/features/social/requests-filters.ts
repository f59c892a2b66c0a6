import { Hono, type Context } from "hono";
import { and, eq, isNull, } from "drizzle-orm";
import { IdParam } from "../../contract/common";
import { ok } from "../../contract/envelope";
import { PageQuery } from "../../contract/social";
import { DEFAULT_REQUESTS_FILTERS, RequestsFiltersBody, type DeclinedEverything, type RequestsFilters } from "../../contract/requests-filters";
import { getDb } from "../../db/client";
import { chatMessageRequests, friendships, memberFilters, members, notifications } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { limitPerMember } from "../../http/rate-limit";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import type { SessionMember } from "../../lib/session-member";
import { block } from "./blocks.service";
import { listNotifications } from "./inbox.service";
import { listRequests } from "../chat/message-requests";
import { refreshInbox } from "../chat/chat-publish";

/**
 * Requests tray controls (README Decisions "Filters for requests and notifications"): the owner's filters, and the
 * declines beyond the plain one — decline and block (the block is blocks.service's, the one home of blocking) and
 * decline everything from a member. The sender is never told: a declined request still reads as waiting to them
 * (conversation-starts.ts waitingOn). The filtering rule itself lives in notifications/sender-filter.ts.
 */

export async function readFilters(env: Env, memberId: string): Promise<RequestsFilters> {
  const row = await getDb(env).select().from(memberFilters).where(eq(memberFilters.memberId, memberId)).get();
  if (!row) return { ...DEFAULT_REQUESTS_FILTERS };
  return { newerThanDays: row.newerThanDays, noAvatar: row.noAvatar, notFollowed: row.notFollowed, inRequests: row.inRequests, inNotifications: row.inNotifications };
}

export async function saveFilters(env: Env, member: Pick<SessionMember, "memberId" | "projectCode">, input: RequestsFilters): Promise<RequestsFilters> {
  const values = { ...input, updatedAt: Date.now() };
  await getDb(env)
    .insert(memberFilters)
    .values({ memberId: member.memberId, projectCode: member.projectCode, ...values })
    .onConflictDoUpdate({ target: memberFilters.memberId, set: values });
  return readFilters(env, member.memberId);
}

/**
 * The caller's own pending request; anyone else's (another member's, another tenant's) is "not found", and so is one
 * already decided (a request is decided once).
 */
async function ownPendingRequest(env: Env, member: SessionMember, idRequest: number) {
  const row = await getDb(env)
    .select({ idRequest: chatMessageRequests.idRequest, fromMemberId: chatMessageRequests.fromMemberId, status: chatMessageRequests.status })
    .from(chatMessageRequests)
    .where(
      and(
        eq(chatMessageRequests.idRequest, idRequest),
        eq(chatMessageRequests.memberId, member.memberId),
        eq(chatMessageRequests.projectCode, member.projectCode),
        eq(chatMessageRequests.status, "pending"),
      ),
    )
    .get();
  if (!row) throw new AppError("notFound");
  return row;
}

const declineStatement = (env: Env, member: SessionMember, fromMemberId: string, at: number) =>
  getDb(env)
    .update(chatMessageRequests)
    .set({ status: "declined", updatedAt: at })
    .where(and(eq(chatMessageRequests.memberId, member.memberId), eq(chatMessageRequests.fromMemberId, fromMemberId), eq(chatMessageRequests.status, "pending")));

type Ctx = { env: Env; member: SessionMember; waitUntil: (p: Promise<unknown>) => void };

/** Decline and block: the request is declined, then the sender blocked for good through the one block service. */
export async function declineAndBlock(ctx: Ctx, idRequest: number) {
  const { env, member } = ctx;
  const row = await ownPendingRequest(env, member, idRequest);
  await declineStatement(env, member, row.fromMemberId, Date.now());
  const sender = await getDb(env).select({ memberNo: members.simpleCode }).from(members).where(eq(members.id, row.fromMemberId)).get();
  // A sender whose account is gone has nothing left to block; the decline stands.
  if (sender) await block(ctx, member.projectCode, sender.memberNo, "forever").catch((error: unknown) => {
    if (!(error instanceof AppError && error.entry.status === 404)) throw error;
  });
  return { idRequest, status: "declined" as const, blocked: true };
}

/**
 * Decline everything from a member: their message request, their pending friend request (deleted, as a reject does,
 * without telling them) and their unread notices (marked read). One atomic batch.
 */
export async function declineEverything(env: Env, member: SessionMember, idRequest: number): Promise<DeclinedEverything> {
  const row = await ownPendingRequest(env, member, idRequest);
  const db = getDb(env);
  const at = Date.now();
  const [, friends, notices] = await db.batch([
    declineStatement(env, member, row.fromMemberId, at),
    db
      .delete(friendships)
      .where(and(eq(friendships.requesterId, row.fromMemberId), eq(friendships.addresseeId, member.memberId), eq(friendships.status, "requested")))
      .returning({ id: friendships.idFriendship }),
    db
      .update(notifications)
      .set({ readAt: at })
      .where(and(eq(notifications.memberId, member.memberId), eq(notifications.actorMemberId, row.fromMemberId), isNull(notifications.readAt)))
      .returning({ id: notifications.idNotification }),
  ]);
  return { idRequest, status: "declined", friendRequests: friends.length, notifications: notices.length };
}

const ctxOf = (c: Context<AppEnv>): Ctx => ({
  env: c.env,
  member: c.get("member"),
  waitUntil: (promise) => {
    const guarded = promise.catch((error) => console.warn(JSON.stringify({ level: "warn", message: "background task failed", error: String(error) })));
    try {
      c.executionCtx.waitUntil(guarded);
    } catch {
      // In-process calls (page loaders) have no execution context; the promise still runs.
    }
  },
});

function idRequestOf(c: Context<AppEnv>) {
  const parsed = IdParam.safeParse(c.req.param("idRequest"));
  if (!parsed.success) throw new AppError("badRequest", { issues: parsed.error.issues.map((i) => ({ path: ["idRequest"], message: i.message, code: i.code })) });
  return parsed.data;
}

/** Fresh counts for the member's open tabs after a decision (the green dot). */
const refresh = (c: Context<AppEnv>) => {
  const member = c.get("member");
  ctxOf(c).waitUntil(refreshInbox(c.env, member.projectCode, member.memberId, member.memberNo));
};

/** Owner-only routes: every path acts on the caller's own filters, tray and notices (no member id to spoof). */
export const requestsFiltersPrivate = new Hono<AppEnv>()
  .get("/sns/requests-filters", async (c) => c.json(ok(await readFilters(c.env, c.get("member").memberId))))
  .put("/sns/requests-filters", validate("json", RequestsFiltersBody), async (c) => c.json(ok(await saveFilters(c.env, c.get("member"), c.req.valid("json")))))
  .get("/sns/message-requests/filtered", async (c) => c.json(ok(await listRequests(c.env, c.get("member"), true))))
  .get("/core/notifications/filtered", validate("query", PageQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(ok(await listNotifications(c.env, c.get("member"), q.pageSize, q.before, true)));
  })
  // Blocking spends the same budget as the block route (README "Rate limits").
  .post("/sns/message-requests/:idRequest/decline-block", limitPerMember("RL_SOCIAL", "block"), async (c) => {
    const result = await declineAndBlock(ctxOf(c), idRequestOf(c));
    refresh(c);
    return c.json(ok(result));
  })
  .post("/sns/message-requests/:idRequest/decline-all", async (c) => {
    const result = await declineEverything(c.env, c.get("member"), idRequestOf(c));
    refresh(c);
    return c.json(ok(result));
  });

