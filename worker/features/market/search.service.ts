// Market search: nickname search and the hot-search keywords it counts (§2 Market, §3 Popular keyword, §7 search/popular-keyword).
import { sql } from "drizzle-orm";
import { nicknameContains } from "../members/nickname-search";
import { getDb } from "../../db/client";
import { utcDate } from "../../lib/time";
import type { PopularKeyword, SubmemberProfile } from "../../contract/market";
import { viewerFor } from "../members/profile-summary";
import { notBlockedWith } from "../members/visibility";
import { deferD1Batch } from "../../db/d1-batch";
import { P, summary, type Caller, type ProfileRow } from "./market-members";

/**
 * One member's search never makes a public "hot search": a keyword is listed only after this many distinct members
 * searched it on the same UTC day (README "Hot searches need several members").
 */
export const HOT_SEARCH_MIN_MEMBERS = 3;

export const normalizeKeyword = (keyword: string) => keyword.trim().toLowerCase().replace(/\s+/g, " ").slice(0, 40);

/**
 * Nickname search for the market. A search that finds someone counts its keyword once per member per
 * UTC day (so one member cannot push a keyword up alone); `changes()` tells the counter whether this
 * member's first search of the day was just stored, inside the same batch.
 */
export async function searchMembers(env: Env, caller: Caller, keyword: string, pageSize: number): Promise<SubmemberProfile[]> {
  const at = Date.now();
  const db = getDb(env);
  const rows = await db.all<ProfileRow>(sql`select ${P} from profiles p
    where p.project_code = ${caller.projectCode} and ${nicknameContains(caller.projectCode, keyword.trim(), pageSize, sql.raw("p.id_profile"), sql.raw("p.nickname"))}
      and p.avator <> '' and p.qualify = 1 and p.blur = 0 and p.blocked = 0 and p.member_id <> ${caller.memberId}
      and ${notBlockedWith(caller.memberId, sql.raw("p.member_id"), at)}
    order by p.id_profile desc limit ${pageSize}`);
  const normalized = normalizeKeyword(keyword);
  // Counted after the response (deferred-writes.ts): the search itself is a read a replica can serve.
  if (rows.length > 0 && normalized) {
    deferD1Batch(env, [
      sql`insert or ignore into keyword_searches (project_code, keyword, member_id, day)
        values (${caller.projectCode}, ${normalized}, ${caller.memberId}, ${utcDate(at)})`,
      sql`insert into search_keywords (project_code, keyword, search_count, last_searched_at)
        select ${caller.projectCode}, ${normalized}, 1, ${at} where changes() > 0
        on conflict (project_code, keyword) do update set search_count = search_count + 1, last_searched_at = excluded.last_searched_at`,
      // README "Hot searches need several members": listed once enough distinct members searched it today.
      sql`update search_keywords set listed_at = ${at}
        where project_code = ${caller.projectCode} and keyword = ${normalized} and listed_at is null
          and (select count(*) from keyword_searches where project_code = ${caller.projectCode} and keyword = ${normalized}
            and day = ${utcDate(at)}) >= ${HOT_SEARCH_MIN_MEMBERS}`,
    ]);
  }
  const viewer = await viewerFor(env, caller.memberId);
  return rows.map((row) => summary(row, viewer));
}

export async function popularKeywords(env: Env, projectCode: string, pageSize: number): Promise<PopularKeyword[]> {
  return getDb(env).all<PopularKeyword>(sql`select keyword, search_count as searchCount from search_keywords
    where project_code = ${projectCode} and listed_at is not null order by search_count desc, last_searched_at desc limit ${pageSize}`);
}
