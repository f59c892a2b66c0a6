/** Zod-free part of ./tasks.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

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
