import { eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import { members, profiles } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { errors, type ErrorName } from "../../contract/errors";
import { SUSPENDED_INDEFINITELY } from "../../contract/moderation.constants";
import type { PostingStatus } from "../../contract/social";
import { iso } from "../../lib/time";

/**
 * The one home of who may post (§5, §6, §8; README Decisions "Posting rules"). Public chat, home chat, a
 * member's personal chatroom, thread replies and guestbook writes (incl. leave message) are posts; a one-to-one
 * room is private by nature and takes only the sending rules. Order decides which text the member reads:
 *  1. account not active or profile flagged blocked → 'report blocked - …' (403209, §8 "Blocked senders get")
 *  2. a moderation posting pause still running → 'Posting blocked temporarily' (403208)
 *  3. a private reply without an avatar → the §8 private-reply warning (403207)
 *  4. no avatar → 'Posting failed: please upload an avatar first' (403204)
 *  5. an avatar that is unqualified or blurred → 'Posting failed: your avatar is not compliant' (403205)
 * A refused attempt changes nothing: callers check before writing, and the chat insert repeats the rule in SQL
 * (`postableSql`) so a row is stored only when it holds at the moment of writing.
 */

/** A posting pause runs while its end is in the future; it lifts by itself (README Decisions "Moderation"). */
export const isSuspended = (suspendedUntil: number | null | undefined, at = Date.now()) => suspendedUntil != null && suspendedUntil > at;

export type PosterState = {
  nickname?: string | null;
  accountStatus: string | null;
  blocked: boolean | null;
  suspendedUntil: number | null;
  avator: string | null;
  qualify: boolean | null;
  blur: boolean | null;
};

export type PostKind = "post" | "send";

/** The refusal for this member's attempt, or null when it may go ahead. `send` = a one-to-one message. */
export function postingRefusal(state: PosterState | null | undefined, kind: PostKind, options: { isPrivate?: boolean; at?: number } = {}): ErrorName | null {
  if (state?.accountStatus !== "active" || state.blocked) return "reportBlocked";
  if (isSuspended(state.suspendedUntil, options.at)) return "postingBlocked";
  if (kind === "send") return null;
  if (!state.avator) return options.isPrivate ? "privateReplyNoAvatar" : "noAvatar";
  if (!state.qualify || state.blur) return "badAvatar";
  return null;
}

/** Reads the member's posting state (one indexed read). */
export async function posterState(env: Env, memberId: string): Promise<PosterState | null> {
  const row = await getDb(env)
    .select({
      nickname: profiles.nickname,
      accountStatus: members.status,
      blocked: profiles.blocked,
      suspendedUntil: members.suspendedUntil,
      avator: profiles.avator,
      qualify: profiles.qualify,
      blur: profiles.blur,
    })
    .from(members)
    .leftJoin(profiles, eq(profiles.memberId, members.id))
    .where(eq(members.id, memberId))
    .get();
  return row ?? null;
}

/** Throws the §8 refusal for a post (or a one-to-one send) the member may not make now. */
export async function assertCanPost(
  env: Env,
  member: { memberId: string; status?: string },
  kind: PostKind = "post",
  options: { isPrivate?: boolean } = {},
): Promise<void> {
  if (member.status && member.status !== "active") throw new AppError("reportBlocked");
  const refusal = postingRefusal(await posterState(env, member.memberId), kind, options);
  if (refusal) throw new AppError(refusal);
}

/** The same rule as SQL, for an insert guarded in its own statement (`insert … select … where`). */
export function postableSql(memberId: string, at: number, kind: PostKind): SQL {
  const avatar = kind === "post" ? sql` and sp.avator <> '' and sp.qualify = 1 and sp.blur = 0` : sql``;
  return sql`exists (select 1 from members sm join profiles sp on sp.member_id = sm.id
    where sm.id = ${memberId} and sm.status = 'active' and sp.blocked = 0 and (sm.suspended_until is null or sm.suspended_until <= ${at})${avatar})`;
}

/**
 * What the member's own composers show before sending (§5 "Sending without nickname or avatar shows a reminder", §8
 * incomplete-profile reminder; README Decisions "Posting rules"): the refusal a post would get now, from the same
 * rule, and what is missing. `suspendedUntil` is null for a pause until lifted (`suspendedIndefinitely`).
 */
export async function postingStatus(env: Env, memberId: string, at = Date.now()): Promise<PostingStatus> {
  const state = await posterState(env, memberId);
  const refusalOf = (kind: PostKind) => {
    const name = postingRefusal(state, kind, { at });
    return name ? { returnCode: errors[name].code, returnMessage: errors[name].message } : null;
  };
  const paused = isSuspended(state?.suspendedUntil, at);
  return {
    post: refusalOf("post"),
    send: refusalOf("send"),
    nicknameMissing: !state?.nickname?.trim(),
    avatar: !state?.avator ? ("missing" as const) : !state.qualify || state.blur ? ("unqualified" as const) : ("ok" as const),
    suspended: paused,
    suspendedUntil: paused && state!.suspendedUntil! < SUSPENDED_INDEFINITELY ? iso(state!.suspendedUntil) : null,
    suspendedIndefinitely: paused && state!.suspendedUntil! >= SUSPENDED_INDEFINITELY,
  };
}
