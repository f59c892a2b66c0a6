// Operators: who moderates a tenant, granting the role, and the operator-only flame holder and AI room (§6 kycStatus 9 and flame holder, README Decisions "Moderation", "Verification").
import { and, eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { operators, profiles } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { isDeletedCode } from "../../lib/ids";
import { operatorGrantAiRoom, operatorSetHolder } from "../flame/flame.service";
import type { Member } from "./moderation.service";

export async function isOperator(env: Env, projectCode: string, memberId: string): Promise<boolean> {
  const row = await getDb(env)
    .select({ id: operators.memberId })
    .from(operators)
    .where(and(eq(operators.projectCode, projectCode), eq(operators.memberId, memberId)))
    .get();
  return row !== undefined;
}

/** Operator routes and the page answer 404 to everyone else: they must not even confirm the queue exists. */
export async function requireOperator(env: Env, member: Member) {
  if (!(await isOperator(env, member.projectCode, member.memberId))) throw new AppError("notFound");
}

export async function grantOperator(env: Env, operator: Member, memberNo: string) {
  const target = await memberByNo(env, operator.projectCode, memberNo);
  const db = getDb(env);
  const row = await db
    .insert(operators)
    .values({ projectCode: operator.projectCode, memberId: target.memberId, grantedBy: operator.memberId, createdAt: Date.now() })
    .onConflictDoNothing()
    .returning({ id: operators.memberId });
  if (row.length === 0) throw new AppError("alreadyOperator");
  return { memberNo: target.memberNo, operator: true };
}

/** README Decisions "Verification": operators name the tenant's flame holder (the first, or a new one). */
export async function makeFlameHolder(env: Env, operator: Member, memberNo: string) {
  const target = await memberByNo(env, operator.projectCode, memberNo);
  await operatorSetHolder(env, operator.projectCode, operator, target.memberId);
  return { memberNo: target.memberNo, flameHolder: true };
}

/** README Decisions "Verification": only operators open the AI room (kycStatus 9). */
export async function grantAiRoom(env: Env, operator: Member, memberNo: string) {
  const target = await memberByNo(env, operator.projectCode, memberNo);
  await operatorGrantAiRoom(env, operator.projectCode, operator, target.memberId);
  return { memberNo: target.memberNo, kycStatus: 9 };
}

export async function memberByNo(env: Env, projectCode: string, memberNo: string) {
  const row = await getDb(env)
    .select({ memberId: profiles.memberId, memberNo: profiles.simpleCode, idProfile: profiles.idProfile })
    .from(profiles)
    .where(and(eq(profiles.projectCode, projectCode), eq(profiles.simpleCode, memberNo)))
    .get();
  if (!row || isDeletedCode(row.memberNo)) throw new AppError("notFound");
  return row;
}
