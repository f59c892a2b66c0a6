import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { getDb } from "../../db/client";
import { pushQuietHours } from "../../db/schema";
import { QuietHoursBody, type QuietHours, type QuietHoursInput } from "../../contract/quiet-hours";
import { ok } from "../../contract/envelope";
import { requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";

type QuietRow = typeof pushQuietHours.$inferSelect;

export const toQuietHours = (row: Pick<QuietRow, "startHour" | "endHour" | "timeZone"> | undefined): QuietHours =>
  row ? { enabled: true, startHour: row.startHour, endHour: row.endHour, timeZone: row.timeZone } : { enabled: false };

/** The query web-push.ts batches with its subscription read (no extra round trip). */
export const quietHoursQuery = (env: Env, memberId: string) =>
  getDb(env).select({ startHour: pushQuietHours.startHour, endHour: pushQuietHours.endHour, timeZone: pushQuietHours.timeZone }).from(pushQuietHours).where(eq(pushQuietHours.memberId, memberId)).limit(1);

/** The hour (0-23) of `at` on the member's wall clock. */
function hourIn(timeZone: string, at: number) {
  const hour = Number(new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" }).format(at));
  return hour === 24 ? 0 : hour;
}

/** Start inclusive, end exclusive; start > end spans midnight. A zone the runtime no longer knows is not quiet. */
export function isQuiet(quiet: QuietHours, at = Date.now()) {
  if (!quiet.enabled) return false;
  let hour: number;
  try {
    hour = hourIn(quiet.timeZone, at);
  } catch {
    return false;
  }
  return quiet.startHour < quiet.endHour ? hour >= quiet.startHour && hour < quiet.endHour : hour >= quiet.startHour || hour < quiet.endHour;
}

export async function readQuietHours(env: Env, memberId: string): Promise<QuietHours> {
  return toQuietHours((await quietHoursQuery(env, memberId))[0]);
}

export async function saveQuietHours(env: Env, member: { memberId: string; projectCode: string }, input: QuietHoursInput): Promise<QuietHours> {
  const db = getDb(env);
  if (!input.enabled) {
    await db.delete(pushQuietHours).where(eq(pushQuietHours.memberId, member.memberId));
    return { enabled: false };
  }
  const values = { startHour: input.startHour, endHour: input.endHour, timeZone: input.timeZone, updatedAt: Date.now() };
  await db
    .insert(pushQuietHours)
    .values({ memberId: member.memberId, projectCode: member.projectCode, ...values })
    .onConflictDoUpdate({ target: pushQuietHours.memberId, set: values });
  return toQuietHours(values);
}

/** GET/PUT the caller's own quiet hours; another member's path is 403 like the other push routes (requireSelf). */
export const quietHoursPrivate = new Hono<AppEnv>()
  .get("/sns/notifications/quiet-hours/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await readQuietHours(c.env, member.memberId)));
  })
  .put("/sns/notifications/quiet-hours/:memberId", validate("json", QuietHoursBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await saveQuietHours(c.env, member, c.req.valid("json"))));
  });
