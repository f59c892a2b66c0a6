import type { Mission, Task } from "../../worker/contract/tasks";
import { TASK_PATHS } from "../../worker/contract/tasks.constants";
import { api } from "../lib/api";

/** The task and mission endpoints (§7 sns tasks), each with its path, method and answer type written once. */

export const createTask = (subject: string, description: string) => api<Task>(`/private${TASK_PATHS.tasks}`, { body: { subject, description } });
export const takeUp = (idTask: number) => api<Mission>(`/private${TASK_PATHS.takeUp(idTask)}`, { method: "POST" });
export const saveMission = (id: number, description: string, remark: string) =>
  api<Mission>(`/private${TASK_PATHS.save}`, { method: "PUT", body: { id, description, remark } });
export const submitMission = (id: number) => api<Mission>(`/private${TASK_PATHS.submit}`, { body: { id } });
export const confirmMission = (id: number, remark: string) => api<Mission>(`/private${TASK_PATHS.confirm}`, { body: { id, remark } });
