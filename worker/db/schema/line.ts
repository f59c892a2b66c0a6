import { sqliteTable, text, integer, uniqueIndex, index } from "drizzle-orm/sqlite-core";

/** A member's LINE account (migration 0037, README Decisions "LINE login"): only the SHA-256 of LINE's `sub`. */
export const lineAccounts = sqliteTable(
  "line_accounts",
  {
    memberId: text("member_id").primaryKey(),
    projectCode: text("project_code").notNull(),
    lineSubHash: text("line_sub_hash").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("line_accounts_sub").on(t.projectCode, t.lineSubHash)],
);

/** A started LINE sign-in (login, bind) or a verified LINE user awaiting the adult confirmation (signup); one use. */
export const lineAuthStates = sqliteTable(
  "line_auth_states",
  {
    stateHash: text("state_hash").primaryKey(),
    projectCode: text("project_code").notNull(),
    purpose: text("purpose", { enum: ["login", "bind", "signup"] }).notNull(),
    memberId: text("member_id"),
    nonce: text("nonce").notNull().default(""),
    codeVerifier: text("code_verifier").notNull().default(""),
    redirectUrl: text("redirect_url").notNull().default(""),
    lineSubHash: text("line_sub_hash"),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("line_auth_states_expires").on(t.expiresAt)],
);
