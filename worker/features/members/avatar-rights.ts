import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * §6/§8 avatar rights, the one home of the rule: a member without a qualifying avatar of their own (an avatar, and
 * `qualify` still set) cannot see other members' avatars. `avatarOf` and `summaryViewSqlFrom` (profile-summary.ts)
 * apply it to cards; this decides who has the right.
 */
export const canSeeAvatars = (own: { avator: string | null | undefined; qualify: boolean | number | null | undefined } | null | undefined): boolean =>
  Boolean(own?.avator && own.qualify);

/** `canSeeAvatars` in SQL over a viewer's own `profiles` row's `avator` and `qualify` columns. */
export const canSeeAvatarsSql = (avatorColumn: SQLWrapper, qualifyColumn: SQLWrapper): SQL => sql`(${avatorColumn} <> '' and ${qualifyColumn})`;

/** `canSeeAvatars` in SQL for the member `viewerId` (a value or a column), read from their row: 0 without one. */
export const viewerCanSeeAvatarsSql = (viewerId: SQLWrapper | string): SQL =>
  sql`coalesce((select ${canSeeAvatarsSql(sql`vp.avator`, sql`vp.qualify`)} from profiles vp where vp.member_id = ${viewerId}), 0)`;
