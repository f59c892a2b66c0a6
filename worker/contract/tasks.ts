import { z } from "zod";
import { numeric } from "./common";
import type { ProfileSummary } from "./profile-summary";

/**
 * Tasks and missions (§3, §4, §7 Tasks). Private calls under /api/v{6,7}/private:
 *   GET  /sns/tasks?pageSize&before          all tasks of the tenant, newest first
 *   POST /sns/tasks {subject, description}   create
 *   POST /sns/tasks/{idTask}/take-up         creates the caller's mission in P
 *   GET  /sns/missions/mine                  missions I took up
 *   GET  /sns/missions/review                missions of my tasks (I review them)
 *   GET  /sns/missions/{idMission}           one mission (its owner or reviewer)
 *   PUT  /sns/missions {id, description, remark?}   owner saves feedback in P
 *   POST /sns/missions/cover  multipart {id, file}  owner's cover image in P
 *   POST /sns/missions/submit {id}           owner: P → F (notifies the reviewer)
 *   POST /sns/missions/confirm {id, remark}  reviewer: F → C (notifies the owner)
 */
export const TASK_PATHS = {
  tasks: "/sns/tasks",
  takeUp: (idTask: number) => `/sns/tasks/${idTask}/take-up`,
  mine: "/sns/missions/mine",
  review: "/sns/missions/review",
  mission: (idMission: number) => `/sns/missions/${idMission}`,
  save: "/sns/missions",
  cover: "/sns/missions/cover",
  submit: "/sns/missions/submit",
  confirm: "/sns/missions/confirm",
} as const;

/** §4 mission status: P processing (owner edits), F reviewing (task creator), C confirmed. */
export const MissionStatus = z.enum(["P", "F", "C"]);
export type MissionStatus = z.infer<typeof MissionStatus>;

/** Before taking up, a task shows only the start of its description (§2: the take-up dialog unlocks the rest). */
export const TASK_PREVIEW_CHARS = 60;
export const TASK_PAGE_SIZE = 30;

const text = (max: number) => z.string().trim().max(max);

export const CreateTaskBody = z.object({
  subject: text(120).min(1, "Subject is required"),
  description: text(4000).min(1, "Description is required"),
});
export const TaskListQuery = z.object({
  pageSize: numeric().pipe(z.number().int().min(1).max(100)).default(TASK_PAGE_SIZE),
  before: numeric().pipe(z.number().int().positive()).optional(),
});
export const MissionIdBody = z.object({ id: numeric().pipe(z.number().int().positive()) });
export const SaveMissionBody = z.object({
  id: numeric().pipe(z.number().int().positive()),
  description: text(4000),
  remark: text(1000).optional(),
});
export const ConfirmMissionBody = z.object({ id: numeric().pipe(z.number().int().positive()), remark: text(1000) });
export const IdTaskParam = z.object({ idTask: numeric().pipe(z.number().int().positive()) });
export const IdMissionParam = z.object({ idMission: numeric().pipe(z.number().int().positive()) });

export type Task = {
  idTask: number;
  subject: string;
  /** Full text for its creator and for members who took it up; otherwise the first TASK_PREVIEW_CHARS. */
  description: string;
  descriptionLocked: boolean;
  timelog: string;
  profile: ProfileSummary | null;
  mine: boolean;
  /** The caller's mission for this task, when taken up. */
  idMission: number | null;
};

export type Mission = {
  idMission: number;
  idTask: number;
  subject: string;
  taskDescription: string;
  /** The owner's feedback text. */
  description: string;
  remark: string;
  /** The reviewer's remark given on confirm. */
  reviewRemark: string;
  cover: string;
  status: MissionStatus;
  timelog: string;
  profile: ProfileSummary | null;
  reviewer: ProfileSummary | null;
  /** The caller's role: owner edits in P, reviewer confirms in F. */
  role: "owner" | "reviewer";
};

export type TaskPage = { items: Task[]; next: number | null };
