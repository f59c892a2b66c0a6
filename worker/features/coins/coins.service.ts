import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { sha256Hex } from "../../lib/crypto";
import { iso } from "../../lib/time";
import type { CoinInfo, TransferResult, WalletTransfer } from "../../contract/market";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { memberByNo } from "../members/members";
import { d1Batch } from "../../db/d1-batch";
import { coinBalance } from "./coin-awards";

type Caller = { memberId: string; projectCode: string };

/** §3 Coin info from the ledger (never a stored counter). */
export async function coinInfo(env: Env, memberId: string): Promise<CoinInfo> {
  return coinBalance(getDb(env), memberId);
}

/** The recipient of a transfer: a live member of the caller's tenant, not the caller, not blocked either way. */
export async function transferRecipient(env: Env, caller: Caller, simpleCode: string) {
  const row = await memberByNo(env, caller.projectCode, simpleCode, caller.memberId);
  if (!row || row.deleted) throw new AppError("notFound");
  if (row.memberId === caller.memberId) throw new AppError("transferSelf");
  if (row.iBlocked || row.theyBlocked) throw new AppError("notFound");
  return row.memberId;
}

/**
 * Without a client `requestId`, the idempotency key comes from the one-time code: a code is used once,
 * so (recipient, amount, code) names exactly one intended transfer and a retry finds it again.
 */
export async function transferKey(input: { toMemberId: string; amount: number; otp: string; requestId?: string }) {
  return input.requestId ? `req:${input.requestId}` : `otp:${await sha256Hex(`${input.toMemberId}:${input.amount}:${input.otp}`)}`;
}

type TransferRow = { idTransfer: number; toMemberId: string; amount: number; coins: number; createdAt: number };

export async function findTransfer(env: Env, fromMemberId: string, idempotencyKey: string) {
  return getDb(env).get<TransferRow>(sql`select id_transfer as idTransfer, to_member_id as toMemberId, amount, coins, created_at as createdAt
    from wallet_transfers where from_member_id = ${fromMemberId} and idempotency_key = ${idempotencyKey}`);
}

/**
 * Moves M coins in ONE batch: the transfer row is inserted only if the sender's ledger balance covers it
 * (the check runs inside the batch's transaction, so two racing transfers cannot both spend the same
 * coins), and both ledger rows are selected from that stored row, keyed by its id. A retry with the same
 * key inserts nothing and replays the stored transfer. Callers verify the OTP first.
 */
export async function moveCoins(
  env: Env,
  caller: Caller,
  input: { toMemberId: string; amount: number; idempotencyKey: string },
): Promise<TransferResult> {
  if (input.amount <= 0 || input.amount % 100 !== 0) throw new AppError("wholeCoinsOnly");
  if (input.toMemberId === caller.memberId) throw new AppError("transferSelf");
  const coins = input.amount / 100;
  const at = Date.now();
  const stored = sql`from wallet_transfers where from_member_id = ${caller.memberId} and idempotency_key = ${input.idempotencyKey}`;
  await d1Batch(env, [
    sql`insert or ignore into wallet_transfers (project_code, from_member_id, to_member_id, amount, coins, idempotency_key, created_at)
      select ${caller.projectCode}, ${caller.memberId}, ${input.toMemberId}, ${input.amount}, ${coins}, ${input.idempotencyKey}, ${at}
      where (select coalesce(sum(amount), 0) from coin_ledger where member_id = ${caller.memberId} and currency = 'mcoin') >= ${coins}`,
    sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
      select project_code, from_member_id, 'mcoin', -coins, 'transferOut', 'transfer:' || id_transfer, created_at ${stored}`,
    sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
      select project_code, to_member_id, 'mcoin', coins, 'transferIn', 'transfer:' || id_transfer, created_at ${stored}`,
  ]);
  const row = await findTransfer(env, caller.memberId, input.idempotencyKey);
  if (!row) throw new AppError("insufficientCoins");
  if (row.toMemberId !== input.toMemberId || row.amount !== input.amount) throw new AppError("transferKeyReused");
  return transferResult(env, caller, row, row.createdAt !== at);
}

export async function transferResult(env: Env, caller: Caller, row: TransferRow, replayed: boolean): Promise<TransferResult> {
  const people = await profileSummaries(env, caller.projectCode, [row.toMemberId], await viewerFor(env, caller.memberId));
  return {
    transfer: {
      idTransfer: row.idTransfer,
      direction: "out",
      counterparty: people.get(row.toMemberId) ?? null,
      amount: row.amount,
      coins: row.coins,
      dateAdd: iso(row.createdAt)!,
    },
    balance: await coinInfo(env, caller.memberId),
    replayed,
  };
}

/** The caller's transfers, both directions, newest first. */
export async function transfersOf(env: Env, caller: Caller, pageSize: number): Promise<WalletTransfer[]> {
  const rows = await getDb(env).all<{ idTransfer: number; fromMemberId: string; toMemberId: string; amount: number; coins: number; createdAt: number }>(sql`
    select id_transfer as idTransfer, from_member_id as fromMemberId, to_member_id as toMemberId, amount, coins, created_at as createdAt
    from wallet_transfers where from_member_id = ${caller.memberId} or to_member_id = ${caller.memberId}
    order by id_transfer desc limit ${pageSize}`);
  const other = (r: (typeof rows)[number]) => (r.fromMemberId === caller.memberId ? r.toMemberId : r.fromMemberId);
  const people = await profileSummaries(env, caller.projectCode, rows.map(other), await viewerFor(env, caller.memberId));
  return rows.map((r) => ({
    idTransfer: r.idTransfer,
    direction: r.fromMemberId === caller.memberId ? "out" : "in",
    counterparty: people.get(other(r)) ?? null,
    amount: r.amount,
    coins: r.coins,
    dateAdd: iso(r.createdAt)!,
  }));
}
