import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "../../db/client";
import { profiles } from "../../db/schema";
import { ok } from "../../contract/envelope";
import { MemberNo } from "../../contract/common";
import { StrangerMediaBody, type AvatarReveal, type StrangerMediaSetting } from "../../contract/stranger-media";
import { AppError } from "../../lib/app-error";
import { requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { findMember } from "../members/members";
import { avatarOf, summaryRows, viewerFor } from "../members/profile-summary";
import { seenAsVisitor } from "../members/profile-access";

/** The owner's setting (absent row cannot happen: every member has a profile; default 'off'). */
export async function readStrangerMedia(env: Env, memberId: string): Promise<StrangerMediaSetting> {
  const row = await getDb(env).select({ strangerMedia: profiles.strangerMedia }).from(profiles).where(eq(profiles.memberId, memberId)).get();
  return { strangerMedia: row?.strangerMedia ?? "off" };
}

/**
 * One avatar without the stranger-media rule, for the page's per-item "Reveal" (README Decisions "Stranger media stays
 * blurred"): what this viewer would get with the setting off — so a `blur` member, the viewer's safe mode or a missing
 * qualifying avatar (§6) still decide. Another tenant's, a deleted or a blocked (either way) member: not found.
 */
export async function revealAvatar(env: Env, member: { memberId: string; projectCode: string }, memberNo: string): Promise<AvatarReveal> {
  // One's own avatar is never blurred by the rule; asking for it answers it as it is.
  const target = await findMember(env, member.projectCode, memberNo, member.memberId);
  if (target.blockedEitherWay) throw new AppError("notFound");
  // A member who approves followers shows those not accepted only a visitor's rendition (README "Approve followers").
  if (await seenAsVisitor(env, member.projectCode, memberNo, member.memberId)) throw new AppError("notFound");
  const [viewer, cards] = await Promise.all([viewerFor(env, member.memberId), summaryRows(env, member.projectCode, [target.memberId])]);
  const card = cards.get(target.memberId);
  if (!card || !viewer) throw new AppError("notFound");
  const { strangerMedia: _lifted, ...withoutRule } = viewer;
  return { memberNo: card.simpleCode, ...avatarOf(card, withoutRule) };
}

/** GET/PUT the caller's own setting (another member's path is 403, requireSelf); the reveal of one avatar. */
export const strangerMediaPrivate = new Hono<AppEnv>()
  .get("/core/stranger-media/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await readStrangerMedia(c.env, member.memberId)));
  })
  .put("/core/stranger-media/:memberId", validate("json", StrangerMediaBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const { strangerMedia } = c.req.valid("json");
    await getDb(c.env)
      .update(profiles)
      .set({ strangerMedia, updatedAt: Date.now() })
      .where(and(eq(profiles.memberId, member.memberId), eq(profiles.projectCode, member.projectCode)));
    return c.json(ok({ strangerMedia } satisfies StrangerMediaSetting));
  })
  // A photo's reveal is `POST /core/banners/{id}/reveal` (the §9 route); this is the same for one member's avatar.
  .post("/core/stranger-media/reveal/:memberNo", validate("param", z.object({ memberNo: MemberNo })), async (c) => {
    return c.json(ok(await revealAvatar(c.env, c.get("member"), c.req.valid("param").memberNo)));
  });
