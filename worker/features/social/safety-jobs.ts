import { and, isNotNull, lte } from "drizzle-orm";
import { getDb } from "../../db/client";
import { blocks, mutes } from "../../db/schema";

/**
 * Timed blocks and mutes already stop counting the moment they expire (every check compares
 * `expires_at` with now); this daily job only removes the spent rows.
 */
export async function liftExpiredSafety(env: Env, at: number) {
  const db = getDb(env);
  await db.batch([
    db.delete(blocks).where(and(isNotNull(blocks.expiresAt), lte(blocks.expiresAt, at))),
    db.delete(mutes).where(and(isNotNull(mutes.expiresAt), lte(mutes.expiresAt, at))),
  ]);
}
