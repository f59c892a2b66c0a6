/** Characters (preferences, §7 Profile): the catalogue, a member's own, and the members holding one. */
import { and, desc, eq, inArray } from "drizzle-orm";
import { getDb } from "../../db/client";
import { characters, profiles, userCharacters } from "../../db/schema";
import type { Character, CharacterUsersPage } from "../../contract/profiles";
import { AppError } from "../../lib/app-error";
import { notBlockedWith } from "../members/visibility";
import { profileSummaryColumns, toProfileSummary, type Viewer } from "../members/profile-summary";
import { openToViewerSql } from "../members/profile-access";
import { actionStatement } from "../members/action-stats";

async function characterIdsOf(env: Env, memberIds: string[]) {
  const rows = await getDb(env)
    .select({ memberId: userCharacters.memberId, idCharacter: userCharacters.idCharacter })
    .from(userCharacters)
    .where(inArray(userCharacters.memberId, memberIds));
  const map = new Map<string, number[]>();
  for (const r of rows) map.set(r.memberId, [...(map.get(r.memberId) ?? []), r.idCharacter]);
  return map;
}


export async function charactersFor(env: Env, projectCode: string, targetId: string | null, viewerId: string | null): Promise<Character[]> {
  const [catalogue, ids] = await Promise.all([characterCatalogueQuery(env, projectCode), characterIdsOf(env, [targetId, viewerId].filter((x): x is string => Boolean(x)))]);
  return toCharacters(catalogue, targetId ? ids.get(targetId) ?? [] : [], viewerId ? ids.get(viewerId) ?? [] : []);
}

export const characterCatalogueQuery = (env: Env, projectCode: string) =>
  getDb(env)
    .select({ idCharacter: characters.idCharacter, title: characters.title, level: characters.level })
    .from(characters)
    .where(inArray(characters.projectCode, ["*", projectCode]))
    .orderBy(characters.idCharacter);

/** The catalogue with the target's picks checked and the ones the viewer shares marked as hits. */
export function toCharacters(catalogue: Awaited<ReturnType<typeof characterCatalogueQuery>>, targetIds: number[], viewerIds: number[]): Character[] {
  const checked = new Set(targetIds);
  const mine = new Set(viewerIds);
  return catalogue.map((c) => ({ ...c, checked: checked.has(c.idCharacter), hit: checked.has(c.idCharacter) && mine.has(c.idCharacter) }));
}

async function requireCharacter(env: Env, projectCode: string, idCharacter: number) {
  const row = await getDb(env)
    .select({ idCharacter: characters.idCharacter })
    .from(characters)
    .where(and(eq(characters.idCharacter, idCharacter), inArray(characters.projectCode, ["*", projectCode])))
    .get();
  if (!row) throw new AppError("characterNotFound");
}

export async function addCharacter(env: Env, projectCode: string, memberId: string, idCharacter: number) {
  await requireCharacter(env, projectCode, idCharacter);
  const db = getDb(env);
  await db.batch([
    db.insert(userCharacters).values({ projectCode, memberId, idCharacter, createdAt: Date.now() }).onConflictDoNothing(),
    actionStatement(env, projectCode, memberId),
  ]);
}

export async function removeCharacter(env: Env, projectCode: string, memberId: string, idCharacter: number) {
  await requireCharacter(env, projectCode, idCharacter);
  await getDb(env)
    .delete(userCharacters)
    .where(and(eq(userCharacters.memberId, memberId), eq(userCharacters.idCharacter, idCharacter)));
}

/** Users holding one preference, 20 per page (§9), newest first, hiding blocked pairs and profiles closed to the viewer. */
export async function characterUsers(env: Env, projectCode: string, idCharacter: number, viewer: Viewer, page: number, pageSize: number): Promise<CharacterUsersPage> {
  await requireCharacter(env, projectCode, idCharacter);
  const rows = await getDb(env)
    .select({ ...profileSummaryColumns, idUserCharacter: userCharacters.idUserCharacter })
    .from(userCharacters)
    .innerJoin(profiles, eq(profiles.memberId, userCharacters.memberId))
    .where(
      and(
        eq(userCharacters.projectCode, projectCode),
        eq(userCharacters.idCharacter, idCharacter),
        eq(profiles.blocked, false),
        notBlockedWith(viewer?.memberId, userCharacters.memberId),
        openToViewerSql(viewer?.memberId ?? null, profiles.memberId, profiles.closed),
      ),
    )
    .orderBy(desc(userCharacters.createdAt))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  const userCharactersList = rows.slice(0, pageSize).map((row) => {
    const profile = toProfileSummary(row, viewer);
    return { idUserCharacter: row.idUserCharacter, simpleCode: profile.simpleCode, nickname: profile.nickname, avator: profile.avator, profile };
  });
  return { page, pageSize, hasMore: rows.length > pageSize, userCharacters: userCharactersList };
}
