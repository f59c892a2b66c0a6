import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * Nicknames of a tenant containing the keyword (profiles search and the market's member search).
 * Three characters or more go through the trigram index of migration 0008: the tenant's newest matches,
 * the page and ten more (room for hidden and blocked members), so a common word never walks the tenant. Shorter keywords (a two-character CJK name) cannot use trigrams and fall back to a scan.
 */
export function nicknameContains(projectCode: string, keyword: string, limit: number, idProfile: SQLWrapper, nickname: SQLWrapper): SQL {
  if ([...keyword].length < 3) return sql`${nickname} like ${`%${keyword.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`} escape '\\'`;
  const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const match = `project_code:${phrase(projectCode)} AND nickname:${phrase(keyword)}`;
  return sql`${idProfile} in (select rowid from profiles_search where profiles_search match ${match} order by rowid desc limit ${limit + 10})`;
}
