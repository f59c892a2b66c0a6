import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";

function png(width = 40, height = 30) {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) pixels.set([(i * 5) % 200 + 30, 90, 140, 255], i * 4);
  const image = new PhotonImage(pixels, width, height);
  const bytes = image.get_bytes();
  image.free();
  return bytes;
}

const LONG = "Kneel for ten minutes at dawn, then write down in detail what you felt and what you learned about yourself.";

async function createTask(as: Member, subject = "Morning ritual", description = LONG) {
  return expectOk(await call("POST", "/private/sns/tasks", { as, body: { subject, description } }));
}

const missionRow = (id: number) => env.DB.prepare("select * from missions where id_mission = ?").bind(id).first<Record<string, any>>();

async function notificationsOf(member: Member, type: string) {
  // notify() runs through waitUntil; give it a moment.
  for (let i = 0; i < 20; i++) {
    const rows = await env.DB.prepare("select * from notifications where member_id = ? and type = ?").bind(member.memberId, type).all();
    if (rows.results.length) return rows.results;
    await new Promise((r) => setTimeout(r, 50));
  }
  return [];
}

describe("tasks", () => {
  it("creates a task, lists it for the tenant and hides the full description until taken up", async () => {
    const a = await signUp();
    const b = await signUp();
    const task = await createTask(a);
    expect(task).toMatchObject({ subject: "Morning ritual", description: LONG, mine: true, descriptionLocked: false, idMission: null });
    expect(task.timelog).toMatch(/Z$/);

    const seenByB = expectOk(await call("GET", "/private/sns/tasks?pageSize=50", { as: b })).items.find((t: any) => t.idTask === task.idTask);
    expect(seenByB.descriptionLocked).toBe(true);
    expect(seenByB.description).not.toBe(LONG);
    expect(LONG.startsWith(seenByB.description.replace(/…$/, ""))).toBe(true);
    expect(seenByB.profile.simpleCode).toBe(a.memberNo);

    const mission = expectOk(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: b }));
    expect(mission).toMatchObject({ status: "P", subject: "Morning ritual", taskDescription: LONG, role: "owner", description: "", remark: "" });
    const after = expectOk(await call("GET", "/private/sns/tasks?pageSize=50", { as: b })).items.find((t: any) => t.idTask === task.idTask);
    expect(after).toMatchObject({ description: LONG, descriptionLocked: false, idMission: mission.idMission });
  });

  it("pages by cursor", async () => {
    const a = await signUp("PGA");
    for (let i = 0; i < 3; i++) await createTask(a, `task ${i}`);
    const first = expectOk(await call("GET", "/private/sns/tasks?pageSize=2", { as: a }));
    expect(first.items.map((t: any) => t.subject)).toEqual(["task 2", "task 1"]);
    const second = expectOk(await call("GET", `/private/sns/tasks?pageSize=2&before=${first.next}`, { as: a }));
    expect(second.items.map((t: any) => t.subject)).toEqual(["task 0"]);
    expect(second.next).toBeNull();
  });

  it("refuses anonymous calls, bad input, own tasks, taking up twice, and other tenants", async () => {
    const a = await signUp();
    const b = await signUp();
    const other = await signUp("ABC");
    expectFailure(await call("GET", "/private/sns/tasks"), 401);
    expectFailure(await call("POST", "/private/sns/tasks", { body: { subject: "x", description: "y" } }), 401);
    const before = await env.DB.prepare("select count(*) as n from tasks").first<{ n: number }>();
    expectFailure(await call("POST", "/private/sns/tasks", { as: a, body: { subject: "  ", description: "y" } }), 400);
    expectFailure(await call("POST", "/private/sns/tasks", { as: a, body: { subject: "x" } }), 400);
    expectFailure(await call("GET", "/private/sns/tasks?pageSize=0", { as: a }), 400);
    expect((await env.DB.prepare("select count(*) as n from tasks").first<{ n: number }>())!.n).toBe(before!.n);

    const task = await createTask(a);
    expectFailure(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: a }), 403, "403801");
    expectFailure(await call("POST", `/private/sns/tasks/abc/take-up`, { as: b }), 400);
    expectFailure(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: other }), 404);
    expect(expectOk(await call("GET", "/private/sns/tasks?pageSize=100", { as: other })).items.some((t: any) => t.idTask === task.idTask)).toBe(false);
    expectOk(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: b }));
    expectFailure(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: b }), 409, "409801");
    const n = await env.DB.prepare("select count(*) as n from missions where id_task = ?").bind(task.idTask).first<{ n: number }>();
    expect(n!.n).toBe(1);
  });

  it("hides the tasks of a blocked member both ways", async () => {
    const a = await signUp();
    const b = await signUp();
    const task = await createTask(a);
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values ('SMP', ?, ?, ?)").bind(a.memberId, b.memberId, Date.now()).run();
    expect(expectOk(await call("GET", "/private/sns/tasks?pageSize=100", { as: b })).items.some((t: any) => t.idTask === task.idTask)).toBe(false);
    expectFailure(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: b }), 404);
  });
});

describe("missions: P → F → C, enforced on the server", () => {
  it("walks a task from creation to C, refusing every wrong actor and wrong state without changes", async () => {
    const creator = await signUp();
    const taker = await signUp();
    const stranger = await signUp();
    const other = await signUp("ABC");
    const task = await createTask(creator);
    const mission = expectOk(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: taker }));
    const id = mission.idMission;
    expect(mission.reviewer.simpleCode).toBe(creator.memberNo);

    // Reads: owner and reviewer only.
    expect(expectOk(await call("GET", `/private/sns/missions/${id}`, { as: creator })).role).toBe("reviewer");
    expectFailure(await call("GET", `/private/sns/missions/${id}`, { as: stranger }), 404);
    expectFailure(await call("GET", `/private/sns/missions/${id}`, { as: other }), 404);
    expectFailure(await call("GET", `/private/sns/missions/${id}`), 401);
    expect(expectOk(await call("GET", "/private/sns/missions/mine", { as: taker })).map((m: any) => m.idMission)).toContain(id);
    expect(expectOk(await call("GET", "/private/sns/missions/review", { as: creator })).map((m: any) => m.idMission)).toContain(id);
    expect(expectOk(await call("GET", "/private/sns/missions/review", { as: taker }))).toEqual([]);

    // In P: only the owner saves, and nobody can confirm.
    const snapshot = await missionRow(id);
    expectFailure(await call("PUT", "/private/sns/missions", { as: creator, body: { id, description: "hijack" } }), 403, "403802");
    expectFailure(await call("PUT", "/private/sns/missions", { as: stranger, body: { id, description: "hijack" } }), 404);
    expectFailure(await call("PUT", "/private/sns/missions", { as: other, body: { id, description: "hijack" } }), 404);
    expectFailure(await call("PUT", "/private/sns/missions", { body: { id, description: "hijack" } }), 401);
    expectFailure(await call("PUT", "/private/sns/missions", { as: taker, body: { id: "x", description: "y" } }), 400);
    expectFailure(await call("PUT", "/private/sns/missions", { as: taker, body: { id, description: 5 } }), 400);
    expectFailure(await call("POST", "/private/sns/missions/submit", { as: creator, body: { id } }), 403, "403802");
    expectFailure(await call("POST", "/private/sns/missions/confirm", { as: creator, body: { id, remark: "too early" } }), 409, "409802");
    expectFailure(await call("POST", "/private/sns/missions/confirm", { as: taker, body: { id, remark: "self" } }), 403, "403803");
    expect(await missionRow(id)).toEqual(snapshot);

    const saved = expectOk(await call("PUT", "/private/sns/missions", { as: taker, body: { id, description: "I knelt and learned patience.", remark: "first try" } }));
    expect(saved).toMatchObject({ description: "I knelt and learned patience.", remark: "first try", status: "P" });

    // Cover through the media pipeline: only images, only the owner.
    const bad = new FormData();
    bad.set("id", String(id));
    bad.set("file", new File([new TextEncoder().encode("not an image at all, just text")], "x.png", { type: "image/png" }));
    expectFailure(await call("POST", "/private/sns/missions/cover", { as: taker, body: bad }), 415);
    const form = () => {
      const f = new FormData();
      f.set("id", String(id));
      f.set("file", new File([new Uint8Array(png())], "cover.png", { type: "image/png" }));
      return f;
    };
    expectFailure(await call("POST", "/private/sns/missions/cover", { as: creator, body: form() }), 403);
    const noFile = new FormData();
    noFile.set("id", String(id));
    expectFailure(await call("POST", "/private/sns/missions/cover", { as: taker, body: noFile }), 400);
    const withCover = expectOk(await call("POST", "/private/sns/missions/cover", { as: taker, body: form() }));
    expect(withCover.cover).toMatch(new RegExp(`^/media/SMP/${taker.memberNo}/cover/[A-Za-z0-9]+\\.jpg$`));
    expect(await env.MEDIA.head(withCover.cover.slice("/media/".length))).not.toBeNull();

    // P → F by the owner; the reviewer is notified.
    const submitted = expectOk(await call("POST", "/private/sns/missions/submit", { as: taker, body: { id } }));
    expect(submitted.status).toBe("F");
    const submittedNotes = await notificationsOf(creator, "missionSubmitted");
    expect(JSON.parse(String(submittedNotes[0]!.params))).toMatchObject({ idMission: id, subject: "Morning ritual" });

    // In F: the owner can no longer edit or resubmit.
    const inF = await missionRow(id);
    expectFailure(await call("PUT", "/private/sns/missions", { as: taker, body: { id, description: "late edit" } }), 409, "409802");
    expectFailure(await call("POST", "/private/sns/missions/cover", { as: taker, body: form() }), 409, "409802");
    expectFailure(await call("POST", "/private/sns/missions/submit", { as: taker, body: { id } }), 409, "409802");
    expectFailure(await call("POST", "/private/sns/missions/confirm", { as: taker, body: { id, remark: "self" } }), 403, "403803");
    expectFailure(await call("POST", "/private/sns/missions/confirm", { as: stranger, body: { id, remark: "x" } }), 404);
    expectFailure(await call("POST", "/private/sns/missions/confirm", { as: creator, body: { id } }), 400);
    expect(await missionRow(id)).toEqual(inF);

    // F → C by the reviewer; the owner is notified.
    const confirmed = expectOk(await call("POST", "/private/sns/missions/confirm", { as: creator, body: { id, remark: "Well done." } }));
    expect(confirmed).toMatchObject({ status: "C", reviewRemark: "Well done.", description: "I knelt and learned patience." });
    const reviewedNotes = await notificationsOf(taker, "missionReviewed");
    expect(JSON.parse(String(reviewedNotes[0]!.params))).toMatchObject({ idMission: id, remark: "Well done." });

    // C is read-only for everyone.
    const inC = await missionRow(id);
    expectFailure(await call("POST", "/private/sns/missions/confirm", { as: creator, body: { id, remark: "again" } }), 409, "409802");
    expectFailure(await call("PUT", "/private/sns/missions", { as: taker, body: { id, description: "after" } }), 409, "409802");
    expectFailure(await call("POST", "/private/sns/missions/submit", { as: taker, body: { id } }), 409, "409802");
    expect(await missionRow(id)).toEqual(inC);
    expect(inC!.status).toBe("C");
  });
});
