import { liftExpiredSafety } from "./features/social/safety-jobs";
import { freeIdleSubmembers, settleListings } from "./features/market/market.service";
/** Cron trigger (wrangler.toml [triggers]): each feature's housekeeping job, run in turn. */
export type ScheduledJob = (env: Env, at: number) => Promise<void>;

const jobs: ScheduledJob[] = [
  // social (issue 4): remove timed blocks and mutes that have expired.
  liftExpiredSafety,
  // market (issue 7): §4 free sub-members idle for a month; close market listings whose countdown ended.
  async (env, at) => {
    await freeIdleSubmembers(env, at);
    await settleListings(env, at);
  },
];

export async function runScheduledJobs(env: Env, at = Date.now()) {
  for (const job of jobs) await job(env, at);
}
