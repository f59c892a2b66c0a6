import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

/** §3 Task: a challenge any member of the tenant may take up. */
export const tasks = sqliteTable(
  "tasks",
  {
    idTask: integer("id_task").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("tasks_project").on(t.projectCode, t.idTask), index("tasks_member").on(t.memberId, t.idTask)],
);

/**
 * §3 Mission: one member's attempt at a task. §4 status P (owner edits) → F (task creator reviews) → C.
 * The reviewer is the task's creator, copied here so "missions to review" is one indexed read.
 */
export const missions = sqliteTable(
  "missions",
  {
    idMission: integer("id_mission").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    idTask: integer("id_task").notNull(),
    memberId: text("member_id").notNull(),
    reviewerMemberId: text("reviewer_member_id").notNull(),
    description: text("description").notNull().default(""),
    remark: text("remark").notNull().default(""),
    reviewRemark: text("review_remark").notNull().default(""),
    cover: text("cover").notNull().default(""),
    status: text("status", { enum: ["P", "F", "C"] }).notNull().default("P"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("missions_task_member").on(t.idTask, t.memberId),
    index("missions_member").on(t.memberId, t.idMission),
    index("missions_reviewer").on(t.reviewerMemberId, t.idMission),
  ],
);

/**
 * §3 Album. A secret key is kept only as a PBKDF2 hash. A keyed album's scramble seed is random (never derived from
 * the key) and kept only sealed under SEAL_SECRET (`s2.` prefix; older rows: a key-derived seed sealed under
 * JWT_SECRET, re-keyed on first use by albums-legacy.ts).
 */
export const albums = sqliteTable(
  "albums",
  {
    idAlbum: integer("id_album").primaryKey({ autoIncrement: true }),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    title: text("title").notNull(),
    keyHash: text("key_hash"),
    seedSealed: text("seed_sealed"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("albums_member").on(t.memberId, t.idAlbum)],
);

/** §3 Photo. `mediaKey` is the R2 key behind `filePath`. */
export const albumPhotos = sqliteTable(
  "album_photos",
  {
    idPhoto: integer("id_photo").primaryKey({ autoIncrement: true }),
    idAlbum: integer("id_album").notNull(),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    filePath: text("file_path").notNull(),
    mediaKey: text("media_key").notNull(),
    description: text("description").notNull().default(""),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("album_photos_album").on(t.idAlbum, t.idPhoto), index("album_photos_media").on(t.mediaKey)],
);

/** Files uploaded for one album (scrambled with its key when it has one); a photo may only reuse its own album's uploads. */
export const albumUploads = sqliteTable(
  "album_uploads",
  {
    mediaKey: text("media_key").primaryKey(),
    idAlbum: integer("id_album").notNull(),
    projectCode: text("project_code").notNull(),
    memberId: text("member_id").notNull(),
    scrambled: integer("scrambled", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("album_uploads_album").on(t.idAlbum)],
);

/** Per-viewer access beyond the shared key: the owner grants and revokes named members. */
export const albumGrants = sqliteTable(
  "album_grants",
  {
    idAlbum: integer("id_album").notNull(),
    memberId: text("member_id").notNull(),
    projectCode: text("project_code").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.idAlbum, t.memberId] }), index("album_grants_member").on(t.memberId)],
);

/**
 * Wrong secret keys per keyed album in the current hour, across all members and visitors (README Rate limits).
 * `attempts` counts reservations: one conditional upsert reserves before the key is checked; a right key gives
 * its reservation back.
 */
export const albumKeyAttempts = sqliteTable("album_key_attempts", {
  idAlbum: integer("id_album").primaryKey(),
  projectCode: text("project_code").notNull(),
  windowStart: integer("window_start").notNull(),
  attempts: integer("attempts").notNull(),
});
