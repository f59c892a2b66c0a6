import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { StrangerMedia } from "../../contract/stranger-media.constants";

/**
 * The one home of "should this member's media reach this viewer blurred?" (README Decisions "Stranger media stays
 * blurred"). A viewer's `strangerMedia` setting: `notFollowed` blurs every member they do not follow, `everyone`
 * every member but themselves. `avatarOf` and `photoOf` ask `strangerBlurs`; SQL that writes cards (the chat page)
 * asks `strangerBlursSql`, the same rule; tests/api/stranger-media.test.ts holds both to every surface.
 */
export type StrangerRule = { mode: Exclude<StrangerMedia, "off">; follows: ReadonlySet<string> };

/** True when `memberId`'s avatar and photos must reach this viewer as the blurred rendition. */
export function strangerBlurs(viewer: { memberId: string; strangerMedia?: StrangerRule } | null, memberId: string): boolean {
  const rule = viewer?.strangerMedia;
  if (!rule || viewer.memberId === memberId) return false;
  return rule.mode === "everyone" || !rule.follows.has(memberId);
}

/** The rule from the viewer's row: the setting and, only for `notFollowed`, the members they follow (JSON array). */
export function strangerRuleOf(mode: string | null | undefined, followsJson: string | null | undefined): StrangerRule | undefined {
  if (mode === "everyone") return { mode, follows: new Set() };
  if (mode === "notFollowed") return { mode, follows: new Set(followsJson ? (JSON.parse(followsJson) as string[]) : []) };
  return undefined;
}

/**
 * The viewer's setting and whom they follow, as two expressions over the viewer's own `profiles` row (`memberIdColumn`),
 * for the statement that already reads that row: no extra round trip. The follow list is read only for `notFollowed`.
 */
export const strangerColumnsOf = (modeColumn: SQLWrapper, memberIdColumn: SQLWrapper) => ({
  mode: sql<string>`${modeColumn}`,
  follows: sql<string>`case when ${modeColumn} = 'notFollowed' then (select json_group_array(f.target_member_id) from follows f where f.member_id = ${memberIdColumn}) else '[]' end`,
});

/** `strangerBlurs` in SQL: `viewerId` looks at a card whose member id is `cardMemberId` (the card is not the viewer's). */
export function strangerBlursSql(viewerId: SQLWrapper | string, cardMemberId: SQLWrapper): SQL {
  const mode = sql`(select sv.stranger_media from profiles sv where sv.member_id = ${viewerId})`;
  return sql`coalesce(${cardMemberId} <> ${viewerId} and (${mode} = 'everyone' or (${mode} = 'notFollowed'
    and not exists (select 1 from follows sf where sf.member_id = ${viewerId} and sf.target_member_id = ${cardMemberId}))), 0)`;
}
