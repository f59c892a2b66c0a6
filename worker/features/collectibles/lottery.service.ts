import { sql, type SQLWrapper } from "drizzle-orm";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { toHex } from "../../lib/crypto";
import { DAY, iso, utcDate } from "../../lib/time";
import {
  LOTTERY_MIN_ACCOUNT_DAYS,
  lotteryCommitment,
  lotteryPrizeFor,
  lotteryWinnerIndex,
  type LotteryDraw,
  type LotteryDrawDetail,
  type LotteryEligibility,
  type LotteryPage,
  type LotteryToday,
} from "../../contract/collectibles.constants";
import { d1Batch } from "../../db/d1-batch";
import { notify } from "../notifications/notify";

/**
 * The daily lottery (README Decisions "Collectibles and the daily lottery"): one draw per tenant and UTC day, free to
 * enter once. The draw row, with a random seed and its SHA-256 commitment, exists before any entry (entries are inserted
 * only while it is open), so the commitment is public before entries close; the scheduled job draws it after the day
 * ends with the formula in `lotteryWinnerIndex` and reveals the seed, the ordered anonymous tickets and the winner index.
 */
type Caller = { memberId: string; projectCode: string };

type DrawRow = {
  idDraw: number;
  drawDate: string;
  seed: string;
  commitment: string;
  prize: number;
  entryCount: number;
  winnerIndex: number | null;
  winnerTicket: string | null;
  winnerMemberId: string | null;
  drawnAt: number | null;
  myTicket?: string | null;
};

const drawColumns = sql`d.id_draw as idDraw, d.draw_date as drawDate, d.seed as seed, d.commitment as commitment, d.prize as prize,
  d.entry_count as entryCount, d.winner_index as winnerIndex, d.winner_ticket as winnerTicket, d.winner_member_id as winnerMemberId, d.drawn_at as drawnAt`;

const randomSeed = () => toHex(crypto.getRandomValues(new Uint8Array(32)));

/** Today's draw of the tenant, created (seed and commitment) by whoever asks first; a racing second insert is ignored. */
async function ensureDraw(env: Env, projectCode: string, drawDate: string, at: number): Promise<DrawRow> {
  const seed = randomSeed();
  await d1Batch(env, [
    sql`insert or ignore into lottery_draws (project_code, draw_date, seed, commitment, prize, created_at)
      values (${projectCode}, ${drawDate}, ${seed}, ${await lotteryCommitment(seed)}, ${lotteryPrizeFor(projectCode)}, ${at})`,
  ]);
  return (await getDb(env).get<DrawRow>(sql`select ${drawColumns} from lottery_draws d where d.project_code = ${projectCode} and d.draw_date = ${drawDate}`))!;
}

/** What a member may see of a draw: the seed and winner only once drawn; never who entered or who won (tickets only). */
function toDraw(row: DrawRow, caller: Caller): LotteryDraw {
  const drawn = row.drawnAt !== null;
  return {
    drawDate: row.drawDate,
    commitment: row.commitment,
    seed: drawn ? row.seed : null,
    prize: row.prize,
    prizeCoins: row.prize / 100,
    entryCount: row.entryCount,
    winnerIndex: drawn ? row.winnerIndex : null,
    winnerTicket: drawn ? row.winnerTicket : null,
    myTicket: row.myTicket ?? null,
    youWon: drawn && row.winnerMemberId === caller.memberId,
    drawnAt: iso(row.drawnAt),
  };
}

/**
 * The caller's standing for today's draw (`LotteryEligibility`), as one SQL expression so the entry insert repeats the
 * very rule it was told: an account that was new, paused or without an approved avatar holds no ticket, even racing.
 */
function eligibilitySql(memberId: string | SQLWrapper, at: number) {
  return sql`(select case
      when m.status <> 'active' or p.blocked = 1 or coalesce(m.suspended_until, 0) > ${at} then 'notActive'
      when p.avator = '' or p.qualify <> 1 or p.blur = 1 then 'needsApprovedAvatar'
      when m.created_at > ${at - LOTTERY_MIN_ACCOUNT_DAYS * DAY} then 'accountTooNew'
      else 'eligible' end
    from members m join profiles p on p.member_id = m.id where m.id = ${memberId})`;
}

async function today(env: Env, caller: Caller, at: number): Promise<LotteryToday> {
  const drawDate = utcDate(at);
  const draw = await ensureDraw(env, caller.projectCode, drawDate, at);
  const row = await getDb(env).get<{ n: number; mine: string | null; eligibility: LotteryEligibility | null }>(sql`select count(*) as n,
      max(case when member_id = ${caller.memberId} then ticket end) as mine, ${eligibilitySql(caller.memberId, at)} as eligibility
    from lottery_entries where project_code = ${caller.projectCode} and draw_date = ${drawDate}`);
  return {
    drawDate,
    commitment: draw.commitment,
    prize: draw.prize,
    prizeCoins: draw.prize / 100,
    entryCount: row?.n ?? 0,
    entered: Boolean(row?.mine),
    myTicket: row?.mine ?? null,
    closesAt: iso(Date.parse(`${drawDate}T00:00:00.000Z`) + DAY)!,
    eligibility: row?.eligibility ?? "notActive",
  };
}

export async function lotteryPage(env: Env, caller: Caller, at = Date.now()): Promise<LotteryPage> {
  const past = await getDb(env).all<DrawRow>(sql`select ${drawColumns}, me.ticket as myTicket from lottery_draws d
    left join lottery_entries me on me.project_code = d.project_code and me.draw_date = d.draw_date and me.member_id = ${caller.memberId}
    where d.project_code = ${caller.projectCode} and d.draw_date < ${utcDate(at)} order by d.draw_date desc limit 14`);
  return { today: await today(env, caller, at), past: past.map((row) => toDraw(row, caller)) };
}

/**
 * One free entry a day for an eligible member: a random ticket, stored only while today's draw is open and the caller
 * is eligible (both checked in the same statement).
 */
export async function enter(env: Env, caller: Caller, at = Date.now()): Promise<LotteryToday> {
  const drawDate = utcDate(at);
  await ensureDraw(env, caller.projectCode, drawDate, at);
  const [result] = await d1Batch(env, [
    sql`insert or ignore into lottery_entries (project_code, draw_date, member_id, ticket, created_at)
      select ${caller.projectCode}, ${drawDate}, ${caller.memberId}, ${toHex(crypto.getRandomValues(new Uint8Array(16)))}, ${at}
      where exists (select 1 from lottery_draws where project_code = ${caller.projectCode} and draw_date = ${drawDate} and drawn_at is null)
        and ${eligibilitySql(caller.memberId, at)} = 'eligible'`,
  ]);
  if (result?.meta.changes) return today(env, caller, at);
  const standing = await today(env, caller, at);
  // Entered already, or (only when clocks jump) today's draw already closed; otherwise the caller is not eligible.
  throw new AppError(standing.entered || standing.eligibility === "eligible" ? "lotteryAlreadyEntered" : "lotteryNotEligible");
}

const ticketsOf = (env: Env, projectCode: string, drawDate: string) =>
  getDb(env).all<{ ticket: string; memberId: string }>(sql`select ticket, member_id as memberId from lottery_entries
    where project_code = ${projectCode} and draw_date = ${drawDate} order by id_entry`);

/** One draw of the caller's tenant with its tickets in entry order, once drawn (another tenant's date is "not found"). */
export async function drawDetail(env: Env, caller: Caller, drawDate: string): Promise<LotteryDrawDetail> {
  const row = await getDb(env).get<DrawRow>(sql`select ${drawColumns}, me.ticket as myTicket from lottery_draws d
    left join lottery_entries me on me.project_code = d.project_code and me.draw_date = d.draw_date and me.member_id = ${caller.memberId}
    where d.project_code = ${caller.projectCode} and d.draw_date = ${drawDate}`);
  if (!row) throw new AppError("notFound");
  const tickets = row.drawnAt === null ? [] : (await ticketsOf(env, caller.projectCode, drawDate)).map((t) => t.ticket);
  return { ...toDraw(row, caller), tickets };
}

/**
 * Scheduled job: draws every tenant's draw whose day has ended. The winner and the prize are stored in one batch that
 * applies only while the draw is undrawn and its entry count is still the one the winner was computed from, and the
 * prize's ledger row is keyed by the draw, so a rerun or an overlapping run pays once. The winner hears it in the inbox.
 */
export async function runDueDraws(env: Env, at = Date.now()) {
  const due = await getDb(env).all<DrawRow & { projectCode: string }>(sql`select ${drawColumns}, d.project_code as projectCode from lottery_draws d
    where d.drawn_at is null and d.draw_date < ${utcDate(at)} order by d.draw_date limit 200`);
  for (const draw of due) {
    // A member paused, suspended or whose avatar was taken down since entering holds no ticket in the draw: their
    // ticket goes before the tickets are read, so the published list is the one the winner was drawn from.
    await d1Batch(env, [
      sql`delete from lottery_entries where project_code = ${draw.projectCode} and draw_date = ${draw.drawDate}
        and ${eligibilitySql(sql`lottery_entries.member_id`, at)} not in ('eligible', 'accountTooNew')`,
    ]);
    const entries = await ticketsOf(env, draw.projectCode, draw.drawDate);
    const index = await lotteryWinnerIndex(draw.seed, draw.drawDate, entries.map((e) => e.ticket));
    const winner = index === null ? null : entries[index]!;
    const [update] = await d1Batch(env, [
      sql`update lottery_draws set drawn_at = ${at}, entry_count = ${entries.length}, winner_index = ${index},
          winner_ticket = ${winner?.ticket ?? null}, winner_member_id = ${winner?.memberId ?? null}
        where id_draw = ${draw.idDraw} and drawn_at is null
          and (select count(*) from lottery_entries where project_code = ${draw.projectCode} and draw_date = ${draw.drawDate}) = ${entries.length}`,
      sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
        select project_code, winner_member_id, 'mcoin', prize / 100, 'lotteryPrize', 'lottery:' || id_draw, drawn_at
        from lottery_draws where id_draw = ${draw.idDraw} and drawn_at = ${at} and winner_member_id is not null and prize > 0`,
    ]);
    if (update?.meta.changes && winner) {
      await notify(env, { projectCode: draw.projectCode, memberId: winner.memberId, type: "lotteryWon", params: { drawDate: draw.drawDate, coins: draw.prize / 100 } });
    }
  }
}
