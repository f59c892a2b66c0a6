import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb } from "../../db/client";
import { DAY } from "../../lib/time";

/**
 * The one home of "is this sender filtered for this member" (README Decisions "Filters for requests and
 * notifications"): an SQL fragment for lists and counts, and `isFilteredFor` (the same fragment, run for one sender)
 * for the moment a notice is sent. A sender is filtered when the owner's row (member_filters) applies to the scope
 * and the sender matches any switched-on criterion: account younger than N days, no avatar, not followed by the
 * owner. Evaluated now, not when the item arrived: following someone later lifts their items out of "Filtered".
 */
export type FilterScope = "requests" | "notifications";

/** A message request notice belongs to the requests tray's filters; every other notice to the notifications'. */
export const scopeOf = (type: string): FilterScope => (type === "messageRequest" ? "requests" : "notifications");

/**
 * `scope` is a fixed scope, or a notification type column (each row then takes its type's scope, as scopeOf does).
 */
export function filteredSender(ownerId: string | SQLWrapper, senderColumn: SQLWrapper, scope: FilterScope | { typeColumn: SQLWrapper }, at = Date.now()): SQL {
  const applies =
    scope === "requests"
      ? sql`f.in_requests = 1`
      : scope === "notifications"
        ? sql`f.in_notifications = 1`
        : sql`(case when ${scope.typeColumn} = 'messageRequest' then f.in_requests else f.in_notifications end) = 1`;
  return sql`exists (select 1 from member_filters f where f.member_id = ${ownerId} and ${applies} and (
    (f.newer_than_days > 0 and coalesce((select sm.created_at from members sm where sm.id = ${senderColumn}), 0) > ${at} - f.newer_than_days * ${DAY})
    or (f.no_avatar = 1 and coalesce((select sp.avator from profiles sp where sp.member_id = ${senderColumn}), '') = '')
    or (f.not_followed = 1 and not exists (select 1 from follows sf where sf.member_id = f.member_id and sf.target_member_id = ${senderColumn}))))`;
}

/** The same rule for one sender: does a notice of this scope from `senderId` stay silent for `ownerId`? */
export async function isFilteredFor(env: Env, ownerId: string, senderId: string, scope: FilterScope, at = Date.now()): Promise<boolean> {
  const row = await getDb(env).get<{ filtered: number }>(sql`select ${filteredSender(ownerId, sql`${senderId}`, scope, at)} as filtered`);
  return Boolean(row?.filtered);
}
