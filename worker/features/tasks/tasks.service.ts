import { and, desc, eq, lt } from "drizzle-orm";
import { getDb } from "../../db/client";
import { missions, profiles, tasks } from "../../db/schema";
import { TASK_PREVIEW_CHARS, type Mission, type MissionStatus, type Task, type TaskPage } from "../../contract/tasks";
import { AppError } from "../../lib/app-error";
import type { SessionMember } from "../../lib/session-member";
import { iso, now } from "../../lib/time";
import { storeImage } from "../images/image-pipeline";
import { notify } from "../notifications/notify";
import { profileSummaries, profileSummaryColumns, toProfileSummary, viewerFor } from "../members/profile-summary";
import { notBlockedWith } from "../members/visibility";

type MissionRow = typeof missions.$inferSelect & { subject: string; taskDescription: string };

const preview = (text: string) => (text.length > TASK_PREVIEW_CHARS ? `${text.slice(0, TASK_PREVIEW_CHARS).trimEnd()}…` : text);

/** §2 Tasks tab 0: every task of the tenant, newest first, without members blocked either way. */
export async function listTasks(env: Env, member: SessionMember, query: { pageSize: number; before?: number }): Promise<TaskPage> {
  const db = getDb(env);
  const viewer = await viewerFor(env, member.memberId);
  const rows = await db
    .select({ task: tasks, profile: profileSummaryColumns, idMission: missions.idMission })
    .from(tasks)
    .innerJoin(profiles, eq(profiles.memberId, tasks.memberId))
    .leftJoin(missions, and(eq(missions.idTask, tasks.idTask), eq(missions.memberId, member.memberId)))
    .where(
      and(
        eq(tasks.projectCode, member.projectCode),
        query.before ? lt(tasks.idTask, query.before) : undefined,
        notBlockedWith(member.memberId, tasks.memberId),
      ),
    )
    .orderBy(desc(tasks.idTask))
    .limit(query.pageSize + 1);
  const page = rows.slice(0, query.pageSize);
  return {
    items: page.map((row) => {
      const mine = row.task.memberId === member.memberId;
      const unlocked = mine || row.idMission != null;
      return {
        idTask: row.task.idTask,
        subject: row.task.subject,
        description: unlocked ? row.task.description : preview(row.task.description),
        descriptionLocked: !unlocked && row.task.description.length > TASK_PREVIEW_CHARS,
        timelog: iso(row.task.createdAt)!,
        profile: toProfileSummary(row.profile, viewer),
        mine,
        idMission: row.idMission ?? null,
      } satisfies Task;
    }),
    next: rows.length > query.pageSize ? page[page.length - 1]!.task.idTask : null,
  };
}

export async function createTask(env: Env, member: SessionMember, body: { subject: string; description: string }): Promise<Task> {
  const row = await getDb(env)
    .insert(tasks)
    .values({ projectCode: member.projectCode, memberId: member.memberId, subject: body.subject, description: body.description, createdAt: now() })
    .returning()
    .get();
  const summaries = await profileSummaries(env, member.projectCode, [member.memberId], await viewerFor(env, member.memberId));
  return {
    idTask: row.idTask,
    subject: row.subject,
    description: row.description,
    descriptionLocked: false,
    timelog: iso(row.createdAt)!,
    profile: summaries.get(member.memberId) ?? null,
    mine: true,
    idMission: null,
  };
}

/** §4: taking up a task creates the taker's mission in P; the task's creator becomes its reviewer. */
export async function takeUp(env: Env, member: SessionMember, idTask: number): Promise<Mission> {
  const db = getDb(env);
  const task = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.idTask, idTask), eq(tasks.projectCode, member.projectCode), notBlockedWith(member.memberId, tasks.memberId)))
    .get();
  if (!task) throw new AppError("notFound");
  if (task.memberId === member.memberId) throw new AppError("ownTask");
  const at = now();
  const inserted = await db
    .insert(missions)
    .values({ projectCode: member.projectCode, idTask, memberId: member.memberId, reviewerMemberId: task.memberId, status: "P", createdAt: at, updatedAt: at })
    .onConflictDoNothing()
    .returning({ idMission: missions.idMission })
    .get();
  if (!inserted) throw new AppError("taskAlreadyTaken");
  return getMission(env, member, inserted.idMission);
}

const missionColumns = { mission: missions, subject: tasks.subject, taskDescription: tasks.description };

async function toMissions(env: Env, member: SessionMember, rows: MissionRow[]): Promise<Mission[]> {
  const ids = rows.flatMap((r) => [r.memberId, r.reviewerMemberId]);
  const summaries = await profileSummaries(env, member.projectCode, ids, await viewerFor(env, member.memberId));
  return rows.map((r) => ({
    idMission: r.idMission,
    idTask: r.idTask,
    subject: r.subject,
    taskDescription: r.taskDescription,
    description: r.description,
    remark: r.remark,
    reviewRemark: r.reviewRemark,
    cover: r.cover,
    status: r.status as MissionStatus,
    timelog: iso(r.updatedAt)!,
    profile: summaries.get(r.memberId) ?? null,
    reviewer: summaries.get(r.reviewerMemberId) ?? null,
    role: r.memberId === member.memberId ? "owner" : "reviewer",
  }));
}

/** The mission as its owner or reviewer sees it; anyone else (or another tenant) gets 404. */
async function loadMission(env: Env, member: SessionMember, idMission: number): Promise<MissionRow> {
  const row = await getDb(env)
    .select(missionColumns)
    .from(missions)
    .innerJoin(tasks, eq(tasks.idTask, missions.idTask))
    .where(and(eq(missions.idMission, idMission), eq(missions.projectCode, member.projectCode)))
    .get();
  if (!row || (row.mission.memberId !== member.memberId && row.mission.reviewerMemberId !== member.memberId)) throw new AppError("notFound");
  return { ...row.mission, subject: row.subject, taskDescription: row.taskDescription };
}

export async function getMission(env: Env, member: SessionMember, idMission: number): Promise<Mission> {
  return (await toMissions(env, member, [await loadMission(env, member, idMission)]))[0]!;
}

/** Tab 1 (missions I took up) or tab 2 (missions of my tasks, to review). */
export async function listMissions(env: Env, member: SessionMember, which: "mine" | "review", pageSize = 100): Promise<Mission[]> {
  const mine = which === "mine";
  const rows = await getDb(env)
    .select(missionColumns)
    .from(missions)
    .innerJoin(tasks, eq(tasks.idTask, missions.idTask))
    .where(
      and(
        eq(missions.projectCode, member.projectCode),
        mine ? eq(missions.memberId, member.memberId) : eq(missions.reviewerMemberId, member.memberId),
        notBlockedWith(member.memberId, mine ? missions.reviewerMemberId : missions.memberId),
      ),
    )
    .orderBy(desc(missions.idMission))
    .limit(pageSize);
  return toMissions(env, member, rows.map((r) => ({ ...r.mission, subject: r.subject, taskDescription: r.taskDescription })));
}

/**
 * The state machine's guard: the right actor (403 otherwise) and the expected state (409 otherwise).
 * The write itself is conditional on the state too, so a race cannot skip a step.
 */
async function guard(env: Env, member: SessionMember, idMission: number, actor: "owner" | "reviewer", status: MissionStatus) {
  const row = await loadMission(env, member, idMission);
  if (actor === "owner" && row.memberId !== member.memberId) throw new AppError("notMissionOwner");
  if (actor === "reviewer" && row.reviewerMemberId !== member.memberId) throw new AppError("notMissionReviewer");
  if (row.status !== status) throw new AppError("missionWrongState");
  return row;
}

async function transition(env: Env, idMission: number, from: MissionStatus, actorColumn: "member" | "reviewer", actorId: string, set: Partial<typeof missions.$inferInsert>) {
  const changed = await getDb(env)
    .update(missions)
    .set({ ...set, updatedAt: now() })
    .where(
      and(
        eq(missions.idMission, idMission),
        eq(missions.status, from),
        actorColumn === "member" ? eq(missions.memberId, actorId) : eq(missions.reviewerMemberId, actorId),
      ),
    )
    .returning({ idMission: missions.idMission });
  if (changed.length === 0) throw new AppError("missionWrongState");
}

/** P: the owner saves feedback text and remark. */
export async function saveMission(env: Env, member: SessionMember, body: { id: number; description: string; remark?: string }) {
  await guard(env, member, body.id, "owner", "P");
  await transition(env, body.id, "P", "member", member.memberId, { description: body.description, ...(body.remark !== undefined ? { remark: body.remark } : {}) });
  return getMission(env, member, body.id);
}

/** P: the owner's cover image, through the media pipeline. */
export async function saveCover(env: Env, member: SessionMember, id: number, file: File) {
  await guard(env, member, id, "owner", "P");
  const stored = await storeImage(env, { projectCode: member.projectCode, memberNo: member.memberNo, kind: "cover", bytes: await file.arrayBuffer() });
  try {
    await transition(env, id, "P", "member", member.memberId, { cover: stored.url });
  } catch (error) {
    await env.MEDIA.delete(stored.key);
    throw error;
  }
  return getMission(env, member, id);
}

/** P → F; the reviewer is told through the member inbox. */
export async function submitMission(env: Env, member: SessionMember, id: number) {
  const row = await guard(env, member, id, "owner", "P");
  await transition(env, id, "P", "member", member.memberId, { status: "F" });
  return {
    mission: await getMission(env, member, id),
    notice: () =>
      notify(env, {
        projectCode: member.projectCode,
        memberId: row.reviewerMemberId,
        type: "missionSubmitted",
        actor: { memberId: member.memberId, memberNo: member.memberNo },
        params: { idMission: id, subject: row.subject },
      }),
  };
}

/** F → C with the reviewer's remark; the owner is told through the member inbox. */
export async function confirmMission(env: Env, member: SessionMember, body: { id: number; remark: string }) {
  const row = await guard(env, member, body.id, "reviewer", "F");
  await transition(env, body.id, "F", "reviewer", member.memberId, { status: "C", reviewRemark: body.remark });
  return {
    mission: await getMission(env, member, body.id),
    notice: () =>
      notify(env, {
        projectCode: member.projectCode,
        memberId: row.memberId,
        type: "missionReviewed",
        actor: { memberId: member.memberId, memberNo: member.memberNo },
        params: { idMission: body.id, subject: row.subject, remark: body.remark },
      }),
  };
}

