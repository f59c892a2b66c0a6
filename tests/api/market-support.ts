import { env } from "cloudflare:test";
import { signUp, type Member } from "../support/client";

export type Profiled = Member & { nickname: string };
let seq = 0;

/** A fresh member with a role and a listable profile (set directly: the profile API is another feature's). */
export async function member(project = "SMP", options: { multiGender?: number; nickname?: string; introduction?: string } = {}): Promise<Profiled> {
  const m = await signUp(project);
  const nickname = options.nickname ?? `Tester ${Date.now().toString(36)}${++seq}`;
  await env.DB.prepare(
    "update profiles set multi_gender = ?, nickname = ?, introduction = ?, avator = ?, qualify = 1 where member_id = ?",
  )
    .bind(options.multiGender ?? 3, nickname, options.introduction ?? "Here to learn and to serve, politely.", `/media/${project}/${m.memberNo}/avatar/a.jpg`, m.memberId)
    .run();
  return { ...m, nickname };
}

export const master = (project = "SMP", options: { multiGender?: 1 | 2; nickname?: string } = {}) => member(project, { multiGender: options.multiGender ?? 1, nickname: options.nickname });

export async function block(a: Member, b: Member) {
  await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)")
    .bind(a.projectCode, a.memberId, b.memberId, Date.now())
    .run();
}

export async function masterOf(m: Member) {
  const row = await env.DB.prepare("select master_member_id as master from submembers where member_id = ?").bind(m.memberId).first<{ master: string }>();
  return row?.master ?? null;
}

export async function historyOf(m: Member) {
  const rows = await env.DB.prepare("select parent_member_id as parent, event from hierarchy_history where member_id = ? order by id_hierarchy_history")
    .bind(m.memberId)
    .all<{ parent: string; event: string }>();
  return rows.results;
}

/** Grants M coins straight into the ledger (test fixture: a balance to spend). */
export async function grantCoins(m: Member, coins: number, key = `grant-${Date.now()}-${++seq}`) {
  await env.DB.prepare(
    "insert into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values (?, ?, 'mcoin', ?, 'testGrant', ?, ?)",
  )
    .bind(m.projectCode, m.memberId, coins, key, Date.now())
    .run();
}

export async function mcoin(memberId: string) {
  const row = await env.DB.prepare("select coalesce(sum(amount), 0) as n from coin_ledger where member_id = ? and currency = 'mcoin'").bind(memberId).first<{ n: number }>();
  return row?.n ?? 0;
}
