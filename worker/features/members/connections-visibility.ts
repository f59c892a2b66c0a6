import { Hono } from "hono";
import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb } from "../../db/client";
import { connectionVisibility } from "../../db/schema";
import { isMemberNo } from "./members";
import { ok } from "../../contract/envelope";
import { ConnectionsSettingsBody, DEFAULT_CONNECTIONS_VISIBILITY, type ConnectionsSettings, type ConnectionsVisibility } from "../../contract/connections";
import { requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";

/**
 * Who sees my connections (README Decisions "Who sees my connections"). One home for the rule: every answer that
 * carries another member's followers, following, friends or sub-members (lists or counts) asks here — the follow info
 * counts, the sub-member list, the hierarchy tree and history, the follows in the activity chart. The owner always
 * sees their own; `everyone` (no row) is everyone the route already lets in; `friends` is the owner's accepted friends
 * (either side asked, as `friendStatusOf` counts it); `nobody` is the owner alone. Blocks and other tenants never get
 * this far (the routes answer 404 first).
 */

/** SQL: true when `viewerId` (null: a visitor) may see the connections of the member in `owner`. */
export function connectionsOpenSql(owner: SQLWrapper, viewerId: string | null): SQL {
  const viewer = viewerId ?? "";
  const audience = sql`coalesce((select cv.audience from connection_visibility cv where cv.member_id = ${owner}), 'everyone')`;
  return sql`(${owner} = ${viewer} or ${audience} = 'everyone' or (${audience} = 'friends' and ${viewer} <> '' and exists (
    select 1 from friendships cf where cf.status = 'accepted'
      and ((cf.requester_id = ${viewer} and cf.addressee_id = ${owner}) or (cf.requester_id = ${owner} and cf.addressee_id = ${viewer})))))`;
}

/** Whether `viewerId` may see the connections of the member `ownerId`. One query. */
export async function connectionsOpenTo(env: Env, ownerId: string, viewerId: string | null): Promise<boolean> {
  const row = await getDb(env).get<{ open: number }>(sql`select ${connectionsOpenSql(sql`${ownerId}`, viewerId)} as open`);
  return Boolean(row?.open);
}

/**
 * The same by member number, for routes that already answered 404 for unknown, deleted, blocked or other-tenant
 * members: true when this viewer may not see them. An unknown number is not hidden (the route's own lookup decides).
 */
export async function connectionsHiddenFrom(env: Env, projectCode: string, memberNo: string, viewerId: string | null): Promise<boolean> {
  const row = await getDb(env).get<{ open: number }>(sql`select ${connectionsOpenSql(sql`p.member_id`, viewerId)} as open
    from profiles p where ${isMemberNo(projectCode, memberNo)} limit 1`);
  return row ? !row.open : false;
}

export async function readConnectionsVisibility(env: Env, memberId: string): Promise<ConnectionsSettings> {
  const row = await getDb(env).select({ audience: connectionVisibility.audience }).from(connectionVisibility).where(eq(connectionVisibility.memberId, memberId)).get();
  return { connectionsVisibility: row?.audience ?? DEFAULT_CONNECTIONS_VISIBILITY };
}

/** `everyone` removes the row (the default), so only members who chose a narrower audience have one. */
export async function saveConnectionsVisibility(env: Env, member: { memberId: string; projectCode: string }, audience: ConnectionsVisibility): Promise<ConnectionsSettings> {
  const db = getDb(env);
  if (audience === DEFAULT_CONNECTIONS_VISIBILITY) {
    await db.delete(connectionVisibility).where(eq(connectionVisibility.memberId, member.memberId));
  } else {
    const values = { audience, updatedAt: Date.now() };
    await db
      .insert(connectionVisibility)
      .values({ memberId: member.memberId, projectCode: member.projectCode, ...values })
      .onConflictDoUpdate({ target: connectionVisibility.memberId, set: values });
  }
  return { connectionsVisibility: audience };
}

/** GET/PUT the caller's own setting; another member's path is 403 (`requireSelf`), like the other own-settings routes. */
export const connectionsVisibilityPrivate = new Hono<AppEnv>()
  .get("/core/connections-visibility/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await readConnectionsVisibility(c.env, member.memberId)));
  })
  .put("/core/connections-visibility/:memberId", validate("json", ConnectionsSettingsBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await saveConnectionsVisibility(c.env, member, c.req.valid("json").connectionsVisibility)));
  });
