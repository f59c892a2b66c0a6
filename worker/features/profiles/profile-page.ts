import type { ProfilesFeed } from "../../contract/profiles";
import { getDb } from "../../db/client";
import { namedBatch } from "../../db/named-batch";
import { bannersOfQuery, bannersWithProfiles, projectBannersQuery, toBanner } from "../media/banners.service";
import { toProfileSummary, toViewer, viewerRowQuery } from "../members/profile-summary";
import { footprintsFor } from "../members/profile-access";
import { locate, profileViewReads } from "./profiles.service";
import { actionStatsQuery, toActionStats } from "../members/action-stats";
import { characterCatalogueQuery, toCharacters } from "./characters";
import { discovery, listProfilesQuery } from "./profile-discovery";
import { toVisitors, visitorsQuery } from "./visitors";

type Strip = Awaited<ReturnType<typeof listProfilesQuery>>;

/** §9 sizes of what the public profile page shows besides the profile. */
const PAGE = { footprints: 30, strip: 20, feedHot: 500, feedBirthdays: 20, feedPhotos: 24 } as const;

/**
 * Everything the public profile page shows (§2), in one read batch: the profile with the relationship, the
 * characters, the activity by hour, the footprints, the photos and the four member strips. The same rules as
 * the single calls (404 across tenants or blocks; the visit is recorded after the response), in one round trip instead of
 * nine calls' worth. Beyond the spec: the page's own call, so its loader stays within the round-trip budget.
 */
export async function profilePage(env: Env, projectCode: string, simpleCode: string, viewerId: string | null) {
  const view = profileViewReads(env, projectCode, locate.byCode(simpleCode), viewerId);
  // Lists read with the viewer's id for blocks; avatar visibility is applied below, once the viewer is known.
  const listViewer = viewerId ? { memberId: viewerId, canSeeAvatars: false, safeMode: false } : null;
  const strip = (options: ReturnType<typeof discovery.hot>) => listProfilesQuery(env, projectCode, listViewer, options);
  // Reads only, so a replica can serve the page; the visit is recorded after the response (`view.record`), and
  // shows in the footprints from the next read on.
  const db = getDb(env);
  const [targetQuery, viewerQuery, characterQuery] = view.queries;
  const read = await namedBatch(db, {
    targets: targetQuery,
    viewers: viewerQuery,
    characterRows: characterQuery,
    catalogue: characterCatalogueQuery(env, projectCode),
    actions: actionStatsQuery(env, view.targetId),
    footprints: visitorsQuery(env, view.targetId, viewerId, PAGE.footprints),
    photos: bannersOfQuery(env, view.targetId),
    hot: strip(discovery.hot(PAGE.strip)),
    newbie: strip(discovery.newest(PAGE.strip)),
    online: strip(discovery.lastAccess(PAGE.strip)),
    speech: strip(discovery.lastChat(PAGE.strip)),
  });
  const { catalogue, actions, footprints, photos, hot, newbie, online, speech } = read;
  const { profile, open, target, viewer, shownTo, asVisitor, characterIds } = view.finish(read.targets, read.viewers, read.characterRows);
  view.record();
  // What is about the member goes out as `shownTo` sees it (a visitor, to a member who approves followers and whom
  // the viewer does not follow: profile-access.ts); the tenant's lists stay the viewer's own.
  const contentViewerId = asVisitor ? null : viewerId;
  const owner = toProfileSummary(target, shownTo);
  // The member's own card in the strips too: the page of a member seen as a visitor carries nothing more of them.
  const cards = (rows: Strip) => rows.map((row) => toProfileSummary(row, row.memberId === target.memberId ? shownTo : viewer));
  const lists = { hot: cards(hot), newbie: cards(newbie), online: cards(online), speech: cards(speech) };
  // §4 Closed profile: the stub and the tenant's lists, nothing of the member (profile-access.ts).
  if (!open) return { profile, characters: [], actions: [], footprints: [], banners: [], lists };
  return {
    profile,
    characters: toCharacters(catalogue, characterIds.get(target.memberId) ?? [], contentViewerId ? characterIds.get(contentViewerId) ?? [] : []),
    actions: toActionStats(actions),
    footprints: toVisitors(footprintsFor(contentViewerId, footprints), shownTo),
    banners: photos.map((row) => ({ ...toBanner(row, shownTo), profile: owner })),
    lists,
  };
}

/**
 * The profiles feed (§2 /profiles): 500 hot members, today's birthdays and the newest photos, in one read
 * batch with the viewer. Beyond the spec, like `profilePage`: the page's own call.
 */
export async function profilesFeed(env: Env, projectCode: string, viewerId: string | null): Promise<ProfilesFeed> {
  const listViewer = viewerId ? { memberId: viewerId, canSeeAvatars: false, safeMode: false } : null;
  const [viewers, hot, birthdays, photos] = await getDb(env).batch([
    viewerRowQuery(env, viewerId ?? ""),
    listProfilesQuery(env, projectCode, listViewer, discovery.hot(PAGE.feedHot)),
    listProfilesQuery(env, projectCode, listViewer, discovery.birthday(PAGE.feedBirthdays)),
    projectBannersQuery(env, projectCode, viewerId, PAGE.feedPhotos),
  ]);
  const viewer = toViewer(viewerId, viewers[0]);
  const cards = (rows: Strip) => rows.map((row) => toProfileSummary(row, viewer));
  // SECURITY.md "What a visitor sees": whose birthday is today is for members.
  return { hot: cards(hot), birthdays: viewerId ? cards(birthdays) : [], banners: bannersWithProfiles(photos, viewer) };
}
