// Appeals: the affected member's one appeal of a suspension or takedown, and the operator's answer (README Decisions "Moderation").
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { mediaUploads, moderationActions, profiles } from "../../db/schema";
import { mediaUrl } from "../../contract/media";
import { AppError } from "../../lib/app-error";
import { liftSuspension, tell, type Member } from "./moderation.service";

/** The affected member appeals a suspension or takedown once; a second appeal is 409 alreadyAppealed. */
export async function appeal(env: Env, member: Member, idAction: number, text: string) {
  const db = getDb(env);
  const at = Date.now();
  const own = and(
    eq(moderationActions.idAction, idAction),
    eq(moderationActions.targetMemberId, member.memberId),
    eq(moderationActions.projectCode, member.projectCode),
    inArray(moderationActions.action, ["suspend", "takedown"]),
  );
  const updated = await db
    .update(moderationActions)
    .set({ appeal: text, appealedAt: at, appealStatus: "open" })
    .where(and(own, isNull(moderationActions.appealedAt)))
    .returning({ idAction: moderationActions.idAction });
  if (updated.length === 1) return { idAction, appealed: true };
  const exists = await db.select({ id: moderationActions.idAction }).from(moderationActions).where(own).get();
  throw new AppError(exists ? "alreadyAppealed" : "notFound");
}

async function latestSuspension(env: Env, memberId: string): Promise<number | undefined> {
  const row = await getDb(env)
    .select({ idAction: moderationActions.idAction })
    .from(moderationActions)
    .where(and(eq(moderationActions.targetMemberId, memberId), eq(moderationActions.action, "suspend")))
    .orderBy(sql`${moderationActions.idAction} desc`)
    .get();
  return row?.idAction;
}

/** A granted takedown appeal puts the taken-down file back, unless the member has uploaded another since. */
async function restoreAvatar(env: Env, memberId: string, at: number) {
  const db = getDb(env);
  const card = await db.select({ avator: profiles.avator, hash: profiles.avatorTakedownHash }).from(profiles).where(eq(profiles.memberId, memberId)).get();
  const upload = card?.hash
    ? await db
        .select({ key: mediaUploads.key, renditionKey: mediaUploads.renditionKey })
        .from(mediaUploads)
        .where(and(eq(mediaUploads.memberId, memberId), eq(mediaUploads.kind, "avatar"), eq(mediaUploads.contentHash, card.hash)))
        .orderBy(sql`${mediaUploads.createdAt} desc`)
        .get()
    : undefined;
  const restored = !card?.avator && upload ? { avator: mediaUrl(upload.key), avatorBlur: upload.renditionKey ? mediaUrl(upload.renditionKey) : "" } : {};
  await db
    .update(profiles)
    .set({ ...restored, qualify: sql`${restored.avator ? sql`1` : sql`${profiles.avator} <> ''`}`, avatorTakedownHash: null, updatedAt: at })
    .where(eq(profiles.memberId, memberId));
}

/** An operator answers an open appeal: granted lifts the suspension or restores the avatar; either way the member is told. */
export async function decideAppeal(env: Env, operator: Member, idAction: number, grant: boolean) {
  const db = getDb(env);
  const at = Date.now();
  const [action] = await db
    .update(moderationActions)
    .set({ appealStatus: grant ? "granted" : "refused", appealDecidedBy: operator.memberId, appealDecidedAt: at })
    .where(
      and(
        eq(moderationActions.idAction, idAction),
        eq(moderationActions.projectCode, operator.projectCode),
        eq(moderationActions.appealStatus, "open"),
        // An operator's own appeal is for another operator.
        sql`${moderationActions.targetMemberId} <> ${operator.memberId}`,
      ),
    )
    .returning();
  if (!action) throw new AppError("notFound");
  // Granting an old appeal lifts only the suspension it was about, never a later one.
  if (grant && action.action === "suspend" && (await latestSuspension(env, action.targetMemberId)) === action.idAction) await liftSuspension(env, action.targetMemberId);
  if (grant && action.action === "takedown") await restoreAvatar(env, action.targetMemberId, at);
  await tell(env, operator.projectCode, action.targetMemberId, grant ? "appealGranted" : "appealRefused", idAction, null, false);
  return { idAction, granted: grant };
}
