import { liftExpiredSafety } from "./features/social/safety-jobs";
/** Cron trigger (wrangler.toml [triggers]): each feature's housekeeping job, run in turn. */
export type ScheduledJob = (env: Env, at: number) => Promise<void>;

const jobs: ScheduledJob[] = [
  // social (issue 4): remove timed blocks and mutes that have expired.
  liftExpiredSafety,
];

export async function runScheduledJobs(env: Env, at = Date.now()) {
  for (const job of jobs) await job(env, at);
}
