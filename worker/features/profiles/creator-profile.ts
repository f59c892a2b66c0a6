import { Hono } from "hono";
import { z } from "zod";
import { and, eq } from "drizzle-orm";
import { ok } from "../../contract/envelope";
import { MemberNo } from "../../contract/common";
import { CreatorProfileBody, type CreatorProfile, type StoredCreatorLink } from "../../contract/creator";
import { mediaKeyFromUrl, mediaUrl } from "../../contract/media";
import { getDb } from "../../db/client";
import { creatorProfiles, mediaUploads, profiles } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { parseProjectCode, requireSelf, sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { photoOf } from "../media/banners.service";
import { closedTo, seenAsVisitor } from "../members/profile-access";
import { viewerFor, type Viewer } from "../members/profile-summary";

/**
 * §3 Creator profile (README Decisions "DNA pairing and creator profiles"). Written by its owner only; read by
 * member number under the profile's own rules (profile-access.ts): "not found" across tenants, blocks and deleted
 * accounts; nothing (null) where the profile is closed to the viewer; and a member who approves followers is, to a
 * member not accepted, what a visitor sees. Logos are the owner's own `logo` uploads, served from /media as the
 * pipeline re-encoded them; visitors and safe-mode viewers get the blurred rendition, as with photos (`photoOf`).
 */

type Row = typeof creatorProfiles.$inferSelect;

function toCreatorProfile(simpleCode: string, row: Row, memberId: string, viewer: Viewer): CreatorProfile {
  return {
    simpleCode,
    introduction: row.introduction,
    websiteUrl: row.websiteUrl,
    company: row.company,
    title: row.title,
    location: row.location,
    links: row.links.map((link) => {
      if (!link.logo) return { url: link.url, title: link.title, logo: "", logoBlur: false };
      const { image, blur } = photoOf({ memberId, image: link.logo, blurImage: link.logoBlur, blur: link.logoGraphic }, viewer);
      return { url: link.url, title: link.title, logo: image, logoBlur: blur };
    }),
    dateUdp: iso(row.updatedAt),
  };
}

/** The creator profile of `simpleCode` as `viewerId` (null: a visitor) may see it. */
export async function creatorProfileOf(env: Env, projectCode: string, simpleCode: string, viewerId: string | null): Promise<CreatorProfile | null> {
  if (await closedTo(env, projectCode, simpleCode, viewerId)) return null;
  const db = getDb(env);
  const found = await db
    .select({ memberId: profiles.memberId, simpleCode: profiles.simpleCode, creator: creatorProfiles })
    .from(profiles)
    .leftJoin(creatorProfiles, eq(creatorProfiles.memberId, profiles.memberId))
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.simpleCode, simpleCode)))
    .get();
  if (!found) throw new AppError("notFound");
  if (!found.creator) return null;
  const asVisitor = viewerId ? await seenAsVisitor(env, projectCode, simpleCode, viewerId) : true;
  const viewer = asVisitor ? null : await viewerFor(env, viewerId);
  return toCreatorProfile(found.simpleCode, found.creator, found.memberId, viewer);
}

/** Replaces the owner's creator profile. Each logo must be one of the owner's own `logo` uploads. */
export async function saveCreatorProfile(env: Env, member: { memberId: string; memberNo: string; projectCode: string }, body: CreatorProfileBody) {
  const db = getDb(env);
  const links: StoredCreatorLink[] = [];
  for (const link of body.links) {
    if (!link.logo) {
      links.push({ url: link.url, title: link.title, logo: "", logoBlur: "", logoGraphic: false });
      continue;
    }
    const key = mediaKeyFromUrl(link.logo);
    const upload = key
      ? await db.select().from(mediaUploads).where(and(eq(mediaUploads.key, key), eq(mediaUploads.memberId, member.memberId))).get()
      : undefined;
    // No remote address, no other member's file, no other kind of upload: only what the pipeline made of the owner's logo.
    if (upload?.kind !== "logo") throw new AppError("creatorLogoNotOwned");
    links.push({ url: link.url, title: link.title, logo: mediaUrl(upload.key), logoBlur: upload.renditionKey ? mediaUrl(upload.renditionKey) : "", logoGraphic: upload.graphic });
  }
  const values = {
    memberId: member.memberId,
    projectCode: member.projectCode,
    introduction: body.introduction,
    websiteUrl: body.websiteUrl,
    company: body.company,
    title: body.title,
    location: body.location,
    links,
    updatedAt: Date.now(),
  };
  await db.insert(creatorProfiles).values(values).onConflictDoUpdate({ target: creatorProfiles.memberId, set: values });
  return toCreatorProfile(member.memberNo, values, member.memberId, { memberId: member.memberId, canSeeAvatars: true, safeMode: false });
}

const CodeParam = z.object({ project: z.string(), simpleCode: MemberNo });

export const creatorPublic = new Hono<AppEnv>().get("/core/creator-profiles/:project/:simpleCode", validate("param", CodeParam), async (c) => {
  const params = c.req.valid("param");
  return c.json(ok(await creatorProfileOf(c.env, parseProjectCode(params.project), params.simpleCode, null)));
});

export const creatorPrivate = new Hono<AppEnv>()
  .get("/core/creator-profiles/:project/:simpleCode", validate("param", CodeParam), async (c) => {
    const params = c.req.valid("param");
    const project = sessionProject(c, params.project);
    return c.json(ok(await creatorProfileOf(c.env, project, params.simpleCode, c.get("member").memberId)));
  })
  .put("/core/creator-profiles/:memberId", validate("param", z.object({ memberId: z.string().min(1).max(64) })), validate("json", CreatorProfileBody), async (c) => {
    const member = requireSelf(c, c.req.valid("param").memberId);
    return c.json(ok(await saveCreatorProfile(c.env, member, c.req.valid("json"))));
  });
