import { sqliteTable, text, integer, uniqueIndex, index } from "drizzle-orm/sqlite-core";

/** An account inside one tenant. `id` is the private memberId; `simpleCode` the public memberNo. */
export const members = sqliteTable(
  "members",
  {
    id: text("id").primaryKey(),
    projectCode: text("project_code").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    simpleCode: text("simple_code").notNull(),
    referralCode: text("referral_code").notNull(),
    referredBy: text("referred_by"),
    referralCount: integer("referral_count").notNull().default(0),
    status: text("status", { enum: ["active", "suspended", "deleted"] }).notNull().default("active"),
    createdAt: integer("created_at").notNull(),
    lastLoginAt: integer("last_login_at"),
    /** A posting pause (migration 0017): sends are refused while it is in the future; null = none. */
    suspendedUntil: integer("suspended_until"),
  },
  (t) => [
    uniqueIndex("members_project_email").on(t.projectCode, t.email),
    uniqueIndex("members_project_code").on(t.projectCode, t.simpleCode),
    // Referral codes are global: referral sign-up joins the referrer's project.
    uniqueIndex("members_referral").on(t.referralCode),
  ],
);

/** Only the SHA-256 of a session token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id").notNull(),
    projectCode: text("project_code").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    endedAt: integer("ended_at"),
  },
  (t) => [
    uniqueIndex("sessions_token").on(t.tokenHash),
    index("sessions_member").on(t.memberId),
    // The daily purge (migration 0014) finds spent sessions through these.
    index("sessions_expires").on(t.expiresAt),
    index("sessions_ended").on(t.endedAt),
  ],
);

export const passwordResets = sqliteTable(
  "password_resets",
  {
    tokenHash: text("token_hash").primaryKey(),
    memberId: text("member_id").notNull(),
    projectCode: text("project_code").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_resets_expires").on(t.expiresAt)],
);

export const otpCodes = sqliteTable(
  "otp_codes",
  {
    memberId: text("member_id").primaryKey(),
    codeHash: text("code_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** What the code was spent for (a transfer's idempotency key, or one verification); null while unspent. */
    spentFor: text("spent_for"),
  },
  (t) => [index("otp_codes_expires").on(t.expiresAt)],
);

/** Local development mail: readable with `wrangler d1 execute DB --local` (README); purged after 7 days. */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("mail_outbox_created").on(t.createdAt), index("mail_outbox_to").on(t.projectCode, t.toEmail)],
);
