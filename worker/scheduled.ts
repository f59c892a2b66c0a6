import { liftExpiredSafety } from "./features/social/safety-jobs";
import { settleListings } from "./features/market/market.service";
import { freeIdleSubmembers } from "./features/market/submembers.service";
import { purgeExpired } from "./features/privacy/retention";
import { runDueDraws } from "./features/collectibles/lottery.service";
import { purgeLineStates } from "./features/line/line.service";
import { allDatabases, envOn } from "./db/router";
/** Cron trigger (wrangler.toml [triggers]): each feature's housekeeping job, run in turn. */
export type ScheduledJob = (env: Env, at: number) => Promise<void>;

const jobs: ScheduledJob[] = [
  // social: remove timed blocks and mutes that have expired.
  liftExpiredSafety,
  // market: §4 free sub-members idle for a month; close market listings whose countdown ended.
  async (env, at) => {
    await freeIdleSubmembers(env, at);
    await settleListings(env, at);
  },
  // privacy: delete sessions, reset links, codes, outbox mail, reminders and search marks whose lifetime is over.
  purgeExpired,
  // collectibles: draw each tenant's lottery for the days that have ended (README "Collectibles and the daily lottery").
  runDueDraws,
  purgeLineStates, // LINE: spent and expired sign-in states (README Decisions "LINE login")
];

/**
 * Every job runs once on each database of the environment (db/router.ts: the shared `DB` and each tenant's own,
 * README Decisions "A tenant per database"); a job sees `env.DB` as that database and handles every tenant in it.
 * One job failing does not keep the others (the purge above all) from running; the run still fails after them.
 */
export async function runScheduledJobs(env: Env, at = Date.now()) {
  const failures: unknown[] = [];
  for (const db of allDatabases(env)) {
    for (const job of jobs) {
      try {
        await job(envOn(env, db), at);
      } catch (error) {
        console.error(JSON.stringify({ level: "error", message: "scheduled job failed", error: String(error) }));
        failures.push(error);
      }
    }
  }
  if (failures.length) throw new AggregateError(failures, "scheduled jobs failed");
}
