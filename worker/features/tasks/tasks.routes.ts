import { Hono } from "hono";
import { ok } from "../../contract/envelope";
import { ConfirmMissionBody, CreateTaskBody, IdMissionParam, IdTaskParam, MissionIdBody, SaveMissionBody, TaskListQuery } from "../../contract/tasks";
import { AppError } from "../../lib/app-error";
import { rateLimit } from "../../http/rate-limit";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { readUploadForm } from "../images/upload-body";
import * as tasks from "./tasks.service";

/** §7 Tasks: every call is private; the tenant is the session's. Paths are listed in worker/contract/tasks.ts. */
export const tasksPrivate = new Hono<AppEnv>()
  .get("/sns/tasks", validate("query", TaskListQuery), async (c) => c.json(ok(await tasks.listTasks(c.env, c.get("member"), c.req.valid("query")))))
  .post("/sns/tasks", validate("json", CreateTaskBody), async (c) => {
    const member = c.get("member");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await tasks.createTask(c.env, member, c.req.valid("json"))));
  })
  .post("/sns/tasks/:idTask/take-up", validate("param", IdTaskParam), async (c) =>
    c.json(ok(await tasks.takeUp(c.env, c.get("member"), c.req.valid("param").idTask))),
  )
  .get("/sns/missions/mine", async (c) => c.json(ok(await tasks.listMissions(c.env, c.get("member"), "mine"))))
  .get("/sns/missions/review", async (c) => c.json(ok(await tasks.listMissions(c.env, c.get("member"), "review"))))
  .get("/sns/missions/:idMission", validate("param", IdMissionParam), async (c) =>
    c.json(ok(await tasks.getMission(c.env, c.get("member"), c.req.valid("param").idMission))),
  )
  .put("/sns/missions", validate("json", SaveMissionBody), async (c) => c.json(ok(await tasks.saveMission(c.env, c.get("member"), c.req.valid("json")))))
  .post("/sns/missions/cover", async (c) => {
    const member = c.get("member");
    const form = await readUploadForm(c);
    const id = MissionIdBody.safeParse({ id: form.get("id") });
    const file = form.get("file");
    if (!id.success || !(file instanceof File)) throw new AppError("badRequest", { message: "Expected multipart form data with id and file" });
    return c.json(ok(await tasks.saveCover(c.env, member, id.data.id, file)));
  })
  .post("/sns/missions/submit", validate("json", MissionIdBody), async (c) => {
    const result = await tasks.submitMission(c.env, c.get("member"), c.req.valid("json").id);
    c.executionCtx.waitUntil(result.notice());
    return c.json(ok(result.mission));
  })
  .post("/sns/missions/confirm", validate("json", ConfirmMissionBody), async (c) => {
    const result = await tasks.confirmMission(c.env, c.get("member"), c.req.valid("json"));
    c.executionCtx.waitUntil(result.notice());
    return c.json(ok(result.mission));
  });
