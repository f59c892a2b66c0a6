import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { eventually, notificationRows, setKyc } from "./social-support";
import { form, giveAvatar, imageBytes } from "./profiles-helpers";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** An established member: `days` old, verified unless told otherwise (README Decisions "Moderation"). */
async function established(options: { days?: number; kyc?: number; project?: string } = {}) {
  const m = await signUp(options.project ?? "SMP");
  await setKyc(m, options.kyc ?? 1);
  await env.DB.prepare("update members set created_at = ? where id = ?").bind(Date.now() - (options.days ?? 30) * DAY, m.memberId).run();
  return m;
}

/** A member others can see in lists and who has spoken (`lastChatAt`), the target of the cases below. */
async function listedSpeaker() {
  const m = await signUp();
  await setKyc(m, 1); // §5: leaving a message needs kycStatus 1
  await giveAvatar(m);
  expectOk(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body: { nickname: `Target ${m.memberNo}` } }));
  await env.DB.prepare("update profiles set last_chat_at = ? where member_id = ?").bind(Date.now() - 60_000, m.memberId).run();
  return m;
}

async function operatorOf(project = "SMP") {
  const op = await signUp(project);
  // What README "Running in production" does with wrangler for the first operator.
  await env.DB.prepare("insert into operators (project_code, member_id, created_at) values (?, ?, ?)").bind(project, op.memberId, Date.now()).run();
  return op;
}

const chat = (m: Member) =>
  call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { message: "back again", requestId: crypto.randomUUID() } });
const reportOk = async (from: Member, target: Member, reason = "harassment") =>
  expectOk(await call("POST", "/private/core/reports", { as: from, body: { targetMemberNo: target.memberNo, reason } }));
const send = (m: Member, to: Member) => call("POST", "/private/core/leave-message", { as: m, body: { code: to.memberNo, text: "hello there" } });
const listed = async (m: Member) => {
  const viewer = await signUp();
  const body = expectOk(await call("GET", "/private/core/profiles/SMP/new?pageSize=100", { as: viewer }));
  return (body as { simpleCode: string }[]).some((p) => p.simpleCode === m.memberNo);
};
const decide = (op: Member, target: Member, body: unknown, project = "SMP") =>
  call("POST", `/private/core/moderation/${project}/members/${target.memberNo}/decisions`, { as: op, body });
const moderationNotices = async (m: Member, n: number) =>
  (await eventually(() => notificationRows(m, "moderation"), (rows) => rows.length >= n)).map((r) => JSON.parse(r.params) as Record<string, unknown>);

afterEach(() => {
  vi.useRealTimers();
});

describe("reports: numbers alone move nothing", () => {
  it("five brand-new accounts reporting a member leave them able to send and listed", async () => {
    const target = await listedSpeaker();
    const friend = await signUp();
    for (let i = 0; i < 5; i++) await reportOk(await signUp(), target);
    expectOk(await send(target, friend));
    expect(await listed(target)).toBe(true);
    expect(await env.DB.prepare("select status, suspended_until from members where id = ?").bind(target.memberId).first()).toEqual({ status: "active", suspended_until: null });
    expect(await env.DB.prepare("select count(*) as n from reports where target_member_id = ? and status = 'open'").bind(target.memberId).first("n")).toBe(5);
  });

  it("established accounts created after the target's last message count for nothing", async () => {
    const target = await listedSpeaker();
    await env.DB.prepare("update profiles set last_chat_at = ? where member_id = ?").bind(Date.now() - 20 * DAY, target.memberId).run();
    for (let i = 0; i < 6; i++) await reportOk(await established({ days: 10 }), target);
    expectOk(await send(target, await signUp()));
  });

  it("established verified reporters cause a 24 h posting pause that lifts by itself", async () => {
    const target = await listedSpeaker();
    const friend = await signUp();
    for (let i = 0; i < 2; i++) await reportOk(await established(), target);
    expectOk(await send(target, friend));
    await reportOk(await established(), target);
    const refused = expectFailure(await send(target, friend), 403, "403208");
    expect(refused.returnMessage).toBe("Posting blocked temporarily");
    expectFailure(await chat(target), 403, "403208");
    // Still listed: a pause stops sending, it does not erase the member.
    expect(await listed(target)).toBe(true);
    const [notice] = await moderationNotices(target, 1);
    expect(notice).toMatchObject({ outcome: "suspended", appealable: true });
    const until = Date.parse(String(notice!.until));
    expect(until - Date.now()).toBeGreaterThan(23 * HOUR);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * HOUR);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 23 * HOUR);
    expectFailure(await send(target, friend), 403, "403208");
    vi.setSystemTime(Date.now() + 2 * HOUR);
    expectOk(await send(target, friend));
    // A chat message passes the send batch's own check too.
    expectOk(await chat(target));
    vi.useRealTimers();
    // The reports stay open for an operator; more reports inside the week do not pause again.
    expect(await env.DB.prepare("select count(*) as n from reports where target_member_id = ? and status = 'open'").bind(target.memberId).first("n")).toBe(3);
  });

  it("reports already weighed into a pause never pause again, repeated or not, a week later", async () => {
    const target = await listedSpeaker();
    const reporters = [await established(), await established(), await established()];
    for (const r of reporters) await reportOk(r, target);
    expectFailure(await send(target, await signUp()), 403, "403208");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 8 * DAY);
    for (const r of reporters) await reportOk(r, target);
    expectOk(await send(target, await signUp()));
    expect(await env.DB.prepare("select count(*) as n from moderation_actions where target_member_id = ? and action = 'suspend'").bind(target.memberId).first("n")).toBe(1);
  });

  it("established but unverified, silent reporters weigh nothing", async () => {
    const target = await listedSpeaker();
    for (let i = 0; i < 6; i++) await reportOk(await established({ kyc: 0 }), target);
    expectOk(await send(target, await signUp()));
  });
});

describe("unqualified marks", () => {
  it("sequential unqualify calls by twenty new accounts leave qualify true", async () => {
    const target = await listedSpeaker();
    const { idProfile } = expectOk(await call("GET", `/private/core/profiles/${target.memberId}`, { as: target }));
    for (let i = 0; i < 20; i++) {
      const reply = expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: await signUp() }));
      expect(reply.qualify).toBe(true);
    }
    expect(await listed(target)).toBe(true);
  });

  it("established verified members' marks take an avatar down at the threshold", async () => {
    const target = await listedSpeaker();
    const { idProfile } = expectOk(await call("GET", `/private/core/profiles/${target.memberId}`, { as: target }));
    for (let i = 0; i < 4; i++) expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: await established() })).qualify).toBe(true);
    expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: await established() })).qualify).toBe(false);
  });
});

describe("unqualified marks after a new avatar", () => {
  it("a repeated or weightless mark does not take a new avatar down; only marks since its upload count", async () => {
    const target = await listedSpeaker();
    const { idProfile } = expectOk(await call("GET", `/private/core/profiles/${target.memberId}`, { as: target }));
    const markers = await Promise.all(Array.from({ length: 5 }, () => established()));
    for (const m of markers) await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: m });
    expect(expectOk(await call("GET", `/private/core/profiles/${target.memberId}`, { as: target })).qualify).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await giveAvatar(target, (x, y) => [30 + (x % 90), 200 - (y % 60), 80]);
    expect(expectOk(await call("GET", `/private/core/profiles/${target.memberId}`, { as: target })).qualify).toBe(true);
    expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: markers[0]! })).qualify).toBe(true);
    expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: await signUp() })).qualify).toBe(true);
    expect(expectOk(await call("PUT", `/private/core/profiles/unqualified/${idProfile}`, { as: await established() })).qualify).toBe(true);
  });
});

describe("operators: uphold, dismiss, lift, appeal", () => {
  it("lists open reports with the target's card and reasons, never the reporters", async () => {
    const op = await operatorOf();
    const target = await listedSpeaker();
    const reporter = await signUp();
    await reportOk(reporter, target, "threats in chat");
    const queue = expectOk(await call("GET", "/private/core/moderation/SMP/queue", { as: op }));
    const found = queue.cases.find((c: { profile: { simpleCode: string } }) => c.profile.simpleCode === target.memberNo);
    expect(found).toMatchObject({ reportWeight: 0, suspendedUntil: null, profile: { nickname: `Target ${target.memberNo}` } });
    expect(found.reports).toEqual([expect.objectContaining({ reason: "threats in chat", weight: 0 })]);
    expect(JSON.stringify(queue)).not.toContain(reporter.memberNo);
    expect(JSON.stringify(queue)).not.toContain(reporter.memberId);
    expect(expectOk(await call("GET", "/private/core/moderation/SMP/role", { as: op }))).toEqual({ operator: true });
    expect(expectOk(await call("GET", "/private/core/moderation/SMP/role", { as: reporter }))).toEqual({ operator: false });
  });

  it("uphold suspends for the chosen hours, the member is told and appeals once; lift restores sending", async () => {
    const op = await operatorOf();
    const target = await listedSpeaker();
    const friend = await signUp();
    await reportOk(await signUp(), target);
    const upheld = expectOk(await decide(op, target, { action: "suspend", hours: 72 }));
    expect(upheld).toMatchObject({ memberNo: target.memberNo, action: "suspend" });
    expect(Date.parse(upheld.suspendedUntil) - Date.now()).toBeGreaterThan(71 * HOUR);
    expect(await env.DB.prepare("select status, decided_by, outcome from reports where target_member_id = ?").bind(target.memberId).first()).toEqual({ status: "upheld", decided_by: op.memberId, outcome: "suspend" });
    expectFailure(await send(target, friend), 403, "403208");
    const [notice] = await moderationNotices(target, 1);
    expect(notice).toMatchObject({ outcome: "suspended", idAction: upheld.idAction, appealable: true });
    // Read through the member's own notification list: type plus params, rendered by the page.
    const list = expectOk(await call("GET", "/private/core/notifications?pageSize=10", { as: target }));
    expect(JSON.stringify(list)).toContain('"moderation"');

    // The member appeals once; a second appeal is refused; someone else's appeal is not found.
    expectFailure(await call("POST", "/private/core/moderation/SMP/appeals", { as: friend, body: { idAction: upheld.idAction, text: "me?" } }), 404);
    expectOk(await call("POST", "/private/core/moderation/SMP/appeals", { as: target, body: { idAction: upheld.idAction, text: "It was a misunderstanding" } }));
    expectFailure(await call("POST", "/private/core/moderation/SMP/appeals", { as: target, body: { idAction: upheld.idAction, text: "again" } }), 409, "409611");
    const queue = expectOk(await call("GET", "/private/core/moderation/SMP/queue", { as: op }));
    expect(queue.appeals).toEqual([expect.objectContaining({ idAction: upheld.idAction, action: "suspend", appeal: "It was a misunderstanding" })]);

    // The operator refuses the appeal (the member is told), then lifts the suspension.
    expectOk(await call("POST", `/private/core/moderation/SMP/appeals/${upheld.idAction}/decision`, { as: op, body: { grant: false } }));
    expectFailure(await call("POST", `/private/core/moderation/SMP/appeals/${upheld.idAction}/decision`, { as: op, body: { grant: true } }), 404);
    expectOk(await decide(op, target, { action: "lift" }));
    expectOk(await send(target, friend));
    const notices = await moderationNotices(target, 3);
    expect(notices.map((n) => n.outcome)).toEqual(["suspended", "appealRefused", "lifted"]);
  });

  it("a suspension until lifted has no end; a granted appeal lifts it", async () => {
    const op = await operatorOf();
    const target = await listedSpeaker();
    const { idAction, suspendedUntil } = expectOk(await decide(op, target, { action: "suspend", hours: null }));
    expect(suspendedUntil).toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * DAY);
    expectFailure(await send(target, await signUp()), 403, "403208");
    vi.useRealTimers();
    const queue = expectOk(await call("GET", "/private/core/moderation/SMP/queue", { as: op }));
    expect(queue.cases.find((c: { profile: { simpleCode: string } }) => c.profile.simpleCode === target.memberNo)).toMatchObject({ suspendedIndefinitely: true });
    expectOk(await call("POST", "/private/core/moderation/SMP/appeals", { as: target, body: { idAction } }));
    expectOk(await call("POST", `/private/core/moderation/SMP/appeals/${idAction}/decision`, { as: op, body: { grant: true } }));
    expectOk(await send(target, await signUp()));
    expect((await moderationNotices(target, 2)).map((n) => n.outcome)).toEqual(["suspended", "appealGranted"]);
  });

  it("dismiss closes the case and ends an automatic pause", async () => {
    const op = await operatorOf();
    const target = await listedSpeaker();
    for (let i = 0; i < 3; i++) await reportOk(await established(), target);
    expectFailure(await send(target, await signUp()), 403, "403208");
    expectOk(await decide(op, target, { action: "dismiss" }));
    expectOk(await send(target, await signUp()));
    expect(await env.DB.prepare("select count(*) as n from reports where target_member_id = ? and status = 'dismissed'").bind(target.memberId).first("n")).toBe(3);
  });

  it("takedown removes the avatar from lists; uploading the same file again does not undo it", async () => {
    const op = await operatorOf();
    const target = await signUp();
    const fill = (x: number, y: number): [number, number, number] => [100 + (x % 50), 90 + (y % 40), 150];
    await giveAvatar(target, fill);
    expectOk(await call("PATCH", `/private/core/profiles/${target.memberId}`, { as: target, body: { nickname: "Taken" } }));
    expect(expectOk(await decide(op, target, { action: "takedown" }))).toMatchObject({ qualify: false });
    expect(await listed(target)).toBe(false);
    expect((await moderationNotices(target, 1))[0]).toMatchObject({ outcome: "avatarRemoved", appealable: true });
    // Gone from every card, not only unqualified.
    const before = await env.DB.prepare("select key from media_uploads where member_id = ? and kind = 'avatar'").bind(target.memberId).first<{ key: string }>();
    expect(await env.DB.prepare("select avator, avator_blur as blur from profiles where member_id = ?").bind(target.memberId).first()).toEqual({ avator: "", blur: "" });
    const card = expectOk(await call("GET", `/public/core/profiles/SMP/member/${target.memberNo}`));
    expect(card.avator).toBe("");
    // The same file again is refused and not kept; choosing the old upload through PATCH is refused too.
    expectFailure(await call("POST", `/private/core/files/SMP/${target.memberId}`, { as: target, body: form(imageBytes(320, 320, fill), "avatar") }), 409, "409613");
    expectFailure(await call("PATCH", `/private/core/profiles/${target.memberId}`, { as: target, body: { avator: `/media/${before!.key}` } }), 409, "409613");
    expect(await env.DB.prepare("select avator from profiles where member_id = ?").bind(target.memberId).first("avator")).toBe("");
    const other = expectOk(await call("POST", `/private/core/files/SMP/${target.memberId}`, { as: target, body: form(imageBytes(320, 320, (x, y) => [60 + (y % 70), 120, 90 + (x % 60)]), "avatar") }));
    expect(other.qualify).toBe(true);
  });

  it("a granted appeal of an old suspension leaves a later one running; an operator cannot decide their own case", async () => {
    const op = await operatorOf();
    const target = await listedSpeaker();
    const first = expectOk(await decide(op, target, { action: "suspend", hours: 1 }));
    expectOk(await call("POST", "/private/core/moderation/SMP/appeals", { as: target, body: { idAction: first.idAction, text: "that was unfair" } }));
    expectOk(await decide(op, target, { action: "suspend", hours: null }));
    expectOk(await call("POST", `/private/core/moderation/SMP/appeals/${first.idAction}/decision`, { as: op, body: { grant: true } }));
    expectFailure(await send(target, await signUp()), 403, "403208");
    expectFailure(await decide(op, op, { action: "lift" }), 400, "400601");
  });

  it("an operator grants the role to another member of the tenant", async () => {
    const op = await operatorOf();
    const next = await signUp();
    expectFailure(await call("GET", "/private/core/moderation/SMP/queue", { as: next }), 404);
    expectOk(await call("POST", "/private/core/moderation/SMP/operators", { as: op, body: { memberNo: next.memberNo } }));
    expectFailure(await call("POST", "/private/core/moderation/SMP/operators", { as: op, body: { memberNo: next.memberNo } }), 409, "409612");
    expectOk(await call("GET", "/private/core/moderation/SMP/queue", { as: next }));
  });
});

describe("who may not", () => {
  it("non-operators get 404 on every operator route, and nothing changes", async () => {
    const member = await signUp();
    const target = await listedSpeaker();
    await reportOk(await signUp(), target);
    const routes: [string, string, unknown?][] = [
      ["GET", "/private/core/moderation/SMP/queue"],
      ["POST", `/private/core/moderation/SMP/members/${target.memberNo}/decisions`, { action: "suspend", hours: 24 }],
      ["POST", `/private/core/moderation/SMP/members/${target.memberNo}/decisions`, { action: "takedown" }],
      ["POST", "/private/core/moderation/SMP/appeals/1/decision", { grant: true }],
      ["POST", "/private/core/moderation/SMP/operators", { memberNo: member.memberNo }],
    ];
    for (const [method, path, body] of routes) {
      expectFailure(await call(method, path, { as: member, body }), 404, "404000");
      expectFailure(await call(method, path, { body }), 401);
    }
    expect(await env.DB.prepare("select suspended_until from members where id = ?").bind(target.memberId).first("suspended_until")).toBeNull();
    expect(await env.DB.prepare("select count(*) as n from operators where member_id = ?").bind(member.memberId).first("n")).toBe(0);
  });

  it("another tenant's operator cannot act on this tenant", async () => {
    const foreignOp = await operatorOf("ABC");
    const target = await listedSpeaker();
    await reportOk(await signUp(), target);
    expectFailure(await call("GET", "/private/core/moderation/SMP/queue", { as: foreignOp }), 404);
    expectFailure(await decide(foreignOp, target, { action: "suspend", hours: 24 }), 404);
    expectFailure(await decide(foreignOp, target, { action: "suspend", hours: 24 }, "ABC"), 404);
    const own = expectOk(await call("GET", "/private/core/moderation/ABC/queue", { as: foreignOp }));
    expect(JSON.stringify(own)).not.toContain(target.memberNo);
    expect(await env.DB.prepare("select suspended_until from members where id = ?").bind(target.memberId).first("suspended_until")).toBeNull();
  });

  it("refuses bad decisions with a 400 envelope", async () => {
    const op = await operatorOf();
    const target = await signUp();
    expectFailure(await decide(op, target, { action: "suspend", hours: 0 }), 400);
    expectFailure(await decide(op, target, { action: "suspend" }), 400);
    expectFailure(await decide(op, target, { action: "ban" }), 400);
    expectFailure(await call("POST", "/private/core/moderation/SMP/appeals", { as: target, body: { idAction: "x" } }), 400);
    expectFailure(await call("POST", "/private/core/moderation/SMP/members/999999999/decisions", { as: op, body: { action: "lift" } }), 404);
  });
});
