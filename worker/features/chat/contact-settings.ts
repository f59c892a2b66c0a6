// How a member may be reached: their contact settings (§6: who writes directly, presence audience) and their public key (§7).
import { eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { chatContactSettings, profiles } from "../../db/schema";
import { DEFAULT_CONTACT_SETTINGS, type ContactSettings } from "../../contract/chat";
import type { PublicKeysAnswer } from "../../contract/e2e.constants";
import { AppError } from "../../lib/app-error";
import { publicDevicesOf } from "../e2e/e2e-devices";
import { isBlockedBetween } from "../members/visibility";
import { memberByNo, type ChatMember } from "./chat-access";

export async function contactSettings(env: Env, memberId: string): Promise<ContactSettings> {
  const row = await getDb(env).select().from(chatContactSettings).where(eq(chatContactSettings.memberId, memberId)).get();
  if (!row) return { ...DEFAULT_CONTACT_SETTINGS };
  let roles: number[] = [];
  try {
    roles = (JSON.parse(row.acceptRoles) as unknown[]).filter((n): n is number => typeof n === "number");
  } catch {
    roles = [];
  }
  return { acceptFrom: row.acceptFrom, acceptRoles: roles, presenceAudience: row.presenceAudience };
}

export async function saveContactSettings(env: Env, member: ChatMember, input: Partial<ContactSettings>) {
  const next = { ...(await contactSettings(env, member.memberId)), ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) } as ContactSettings;
  const values = {
    memberId: member.memberId,
    projectCode: member.projectCode,
    acceptFrom: next.acceptFrom,
    acceptRoles: JSON.stringify([...new Set(next.acceptRoles)].sort()),
    presenceAudience: next.presenceAudience,
    updatedAt: Date.now(),
  };
  await getDb(env).insert(chatContactSettings).values(values).onConflictDoUpdate({ target: chatContactSettings.memberId, set: values });
  return next;
}

/** Follow and friendship facts between two members, in one query. */
async function pairFacts(env: Env, a: string, b: string) {
  const row = await getDb(env).get<{ aFollowsB: number; bFollowsA: number; friends: number }>(sql`select
    exists (select 1 from follows where member_id = ${a} and target_member_id = ${b}) as aFollowsB,
    exists (select 1 from follows where member_id = ${b} and target_member_id = ${a}) as bFollowsA,
    exists (select 1 from friendships where status = 'accepted' and ((requester_id = ${a} and addressee_id = ${b}) or (requester_id = ${b} and addressee_id = ${a}))) as friends`);
  return { aFollowsB: Boolean(row?.aFollowsB), bFollowsA: Boolean(row?.bFollowsA), friends: Boolean(row?.friends) };
}

/** Does the recipient take private messages from this sender directly (§6 contact settings)? */
export async function acceptsDirectly(env: Env, recipientId: string, sender: { memberId: string; kycStatus: number; multiGender: number | null }) {
  const settings = await contactSettings(env, recipientId);
  if (sender.multiGender != null && settings.acceptRoles.includes(sender.multiGender)) return true;
  if (settings.acceptFrom === "everyone") return true;
  if (settings.acceptFrom === "verified") return sender.kycStatus >= 1 || (await pairFacts(env, recipientId, sender.memberId)).aFollowsB;
  const facts = await pairFacts(env, recipientId, sender.memberId);
  if (settings.acceptFrom === "following") return facts.aFollowsB;
  return facts.friends;
}

/** A member's public key for encrypted private messages (§7), or null, and their end-to-end devices (e2e-devices.ts). */
export async function publicKeyOf(env: Env, member: ChatMember, memberNo: string): Promise<PublicKeysAnswer> {
  const target = await memberByNo(env, member.projectCode, memberNo);
  if (target.memberId !== member.memberId && (await isBlockedBetween(env, member.memberId, target.memberId))) throw new AppError("notFound");
  const [row, devices] = await Promise.all([
    getDb(env).select({ publicKey: profiles.publicKey }).from(profiles).where(eq(profiles.memberId, target.memberId)).get(),
    publicDevicesOf(env, { memberId: target.memberId, projectCode: member.projectCode }),
  ]);
  return { memberNo, publicKey: row?.publicKey ?? null, devices };
}
