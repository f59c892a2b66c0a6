import { env } from "cloudflare:test";
import { call, expectOk, signUp, type Member } from "../support/client";

/** Social test helpers: direct D1 tweaks for states the API only reaches through other features. */
export async function setKyc(member: Pick<Member, "memberId">, kycStatus: number) {
  await env.DB.prepare("update profiles set kyc_status = ? where member_id = ?").bind(kycStatus, member.memberId).run();
}

export async function verifiedMember(project = "SMP") {
  // Verified members here leave messages: they may post (§5/§6 qualifying avatar).
  const member = await signUp(project, { avatar: true });
  await setKyc(member, 1);
  return member;
}

/** Notifications are stored after the response (waitUntil); poll until the condition holds. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeout = 3000): Promise<T> {
  const started = Date.now();
  let value = await read();
  while (!accept(value) && Date.now() - started < timeout) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return value;
}

export async function notificationRows(member: Pick<Member, "memberId">, type?: string) {
  const rows = await env.DB.prepare("select type, actor_member_id, params from notifications where member_id = ? order by id_notification")
    .bind(member.memberId)
    .all<{ type: string; actor_member_id: string | null; params: string }>();
  return rows.results.filter((r) => !type || r.type === type);
}

export async function block(blocker: Member, target: Member, duration?: string) {
  return expectOk(await call("POST", "/private/core/blocks", { as: blocker, body: { targetMemberNo: target.memberNo, ...(duration ? { duration } : {}) } }));
}

/** Moves a block's expiry (timed blocks) without waiting a day in a test. */
export async function setBlockExpiry(idBlock: number, expiresAt: number | null) {
  await env.DB.prepare("update blocks set expires_at = ? where id_block = ?").bind(expiresAt, idBlock).run();
}
