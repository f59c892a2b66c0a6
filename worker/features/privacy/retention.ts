import { and, isNotNull, lt, lte, or } from "drizzle-orm";
import { getDb } from "../../db/client";
import { accountSignals, chatReminders, evasionWatches, keywordSearches, mailOutbox, otpCodes, passwordResets, sessions } from "../../db/schema";
import { SIGNAL_LIFETIME } from "../members/block-evasion";
import { DAY, utcDate } from "../../lib/time";

/** How long the local mail outbox keeps a message (reset links live an hour, codes five minutes). */
export const MAIL_OUTBOX_LIFETIME = 7 * DAY;

/**
 * The daily purge (README Decisions "What is kept, and for how long"): rows whose lifetime is over are deleted, not
 * just ignored. Every check already refuses them the moment they expire; this removes what would otherwise pile up
 * as a record of who logged in, asked for a reset or a code, was mailed, searched for whom or set which reminder.
 * `at` is the job's time, so a test can run it at any moment.
 */
export async function purgeExpired(env: Env, at: number) {
  const db = getDb(env);
  const today = utcDate(at);
  await db.batch([
    // A session ends at its expiry or at logout, password change, reset or deletion (ended_at).
    db.delete(sessions).where(or(lte(sessions.expiresAt, at), and(isNotNull(sessions.endedAt), lte(sessions.endedAt, at)))),
    // A reset link is spent once used or expired.
    db.delete(passwordResets).where(or(isNotNull(passwordResets.usedAt), lte(passwordResets.expiresAt, at))),
    db.delete(otpCodes).where(lte(otpCodes.expiresAt, at)),
    db.delete(mailOutbox).where(lte(mailOutbox.createdAt, at - MAIL_OUTBOX_LIFETIME)),
    // §9: a reminder is shown only on its UTC date; once that date is over nothing shows it again.
    db.delete(chatReminders).where(lt(chatReminders.remindAt, Date.parse(`${today}T00:00:00.000Z`))),
    // A member counts once per keyword per UTC day (market search); past days' rows only say who searched what.
    db.delete(keywordSearches).where(lt(keywordSearches.day, today)),
    // Sign-in signal hashes (block-evasion.ts) last seen SIGNAL_LIFETIME ago, and watches remembered that long ago.
    db.delete(accountSignals).where(lte(accountSignals.lastSeenAt, at - SIGNAL_LIFETIME)),
    db.delete(evasionWatches).where(lte(evasionWatches.createdAt, at - SIGNAL_LIFETIME)),
  ]);
}
