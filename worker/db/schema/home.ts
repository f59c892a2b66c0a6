import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** §2/§4 feedback box (the confessional): stored for operators, never shown to other members. */
export const feedback = sqliteTable(
  "feedback",
  {
    idFeedback: integer("id_feedback").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    message: text("message").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("feedback_project_created").on(t.projectCode, t.createdAt)],
);

/**
 * §3 AI image. `file` is the public name under /output/{file}; `mediaKey` is set when the image is
 * ready (the R2 object under kind "ai"), so "pending" is `mediaKey is null`.
 */
export const aiImages = sqliteTable(
  "ai_images",
  {
    idImage: integer("id_image").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    prompt: text("prompt").notNull(),
    file: text("file").notNull(),
    status: text("status", { enum: ["pending", "ready", "failed"] }).notNull().default("pending"),
    mediaKey: text("media_key"),
    blur: integer("blur", { mode: "boolean" }).notNull().default(false),
    provider: text("provider").notNull(),
    createdAt: integer("created_at").notNull(),
    readyAt: integer("ready_at"),
  },
  (t) => [uniqueIndex("ai_images_file").on(t.file), index("ai_images_member").on(t.memberId, t.idImage)],
);
