import { z } from "zod";
import { numeric } from "./common";
import type { ProfileSummary } from "./profile-summary";
// The calls (paths, who may make them) are listed beside the path table in ./tasks.constants.ts.
export * from "./tasks.constants";

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
