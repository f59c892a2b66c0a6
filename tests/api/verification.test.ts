import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { eventually, notificationRows, setKyc } from "./social-support";

/** README Decisions "Verification": requests, the holder's approval, the torch relay and operator grants. */

async function operatorOf(project = "SMP") {
  const op = await signUp(project);
  await env.DB.prepare("insert into operators (project_code, member_id, created_at) values (?, ?, ?)").bind(project, op.memberId, Date.now()).run();
  return op;
}
const makeHolder = (op: Member, target: Member, project = "SMP") =>
  call("POST", `/private/core/moderation/${project}/flame`, { as: op, body: { memberNo: target.memberNo } });
const grantAi = (op: Member, target: Member, project = "SMP") => call("POST", `/private/core/moderation/${project}/members/${target.memberNo}/ai-room`, { as: op });
const ask = (m: Member, project = "SMP") => call("POST", `/private/core/flame/${project}/verification`, { as: m });
const approve = (holder: Member, target: Member) => call("POST", "/private/core/flame/SMP/approve", { as: holder, body: { targetMemberNo: target.memberNo } });
const leave = (m: Member, to: Member) => call("POST", "/private/core/leave-message", { as: m, body: { code: to.memberNo, text: "hello there" } });
const kyc = async (m: Member) => (await env.DB.prepare("select kyc_status as k from profiles where member_id = ?").bind(m.memberId).first("k")) as number;
const flameNotices = async (m: Member, action: string) =>
  (await eventually(() => notificationRows(m, "flame"), (rows) => rows.some((r) => JSON.parse(r.params).action === action))).map((r) => JSON.parse(r.params) as Record<string, unknown>);

describe("verification requests", () => {
  it("a member asks once, the holder is told and lists it, approval verifies and closes it", async () => {
    const [op, holder, member, other] = [await operatorOf(), await signUpPoster(), await signUpPoster(), await signUpPoster()];
    expect(expectOk(await makeHolder(op, holder))).toEqual({ memberNo: holder.memberNo, flameHolder: true });
    expect(await flameNotices(holder, "received")).toContainEqual({ action: "received", by: "operator" });

    expectFailure(await leave(member, other), 403, "403201");
    expect(expectOk(await call("GET", "/private/core/flame/SMP/verification", { as: member }))).toEqual({ kycStatus: 0, verified: false, requestedAt: null });
    const asked = expectOk(await ask(member));
    expect(asked.requestedAt).toEqual(expect.any(String));
    expectFailure(await ask(member), 409, "409604");
    expect(await env.DB.prepare("select count(*) as n from verification_requests where member_id = ?").bind(member.memberId).first("n")).toBe(1);

    const received = await eventually(() => notificationRows(holder, "flame"), (rows) => rows.some((r) => JSON.parse(r.params).action === "requested"));
    expect(received.find((r) => JSON.parse(r.params).action === "requested")).toMatchObject({ actor_member_id: member.memberId });

    const list = expectOk(await call("GET", "/private/core/flame/SMP/requests", { as: holder }));
    expect(list.requests.map((r: { memberNo: string }) => r.memberNo)).toEqual([member.memberNo]);
    expect(JSON.stringify(list)).not.toContain(member.memberId);

    expect(expectOk(await approve(holder, member))).toEqual({ memberNo: member.memberNo, kycStatus: 1 });
    expect(await flameNotices(member, "approved")).toContainEqual({ action: "approved" });
    expect(expectOk(await call("GET", "/private/core/flame/SMP/requests", { as: holder })).requests).toEqual([]);
    expectOk(await leave(member, other));
    expectFailure(await ask(member), 409, "409603");
  });

  it("only the holder lists and approves; others get 403 (§8 403601)", async () => {
    const [op, holder, member, stranger] = [await operatorOf(), await signUpPoster(), await signUpPoster(), await signUpPoster()];
    expectOk(await makeHolder(op, holder));
    expectOk(await ask(member));
    expectFailure(await call("GET", "/private/core/flame/SMP/requests", { as: stranger }), 403, "403601");
    expectFailure(await approve(stranger, member), 403, "403601");
    expectFailure(await approve(op, member), 403, "403601");
    expect(await kyc(member)).toBe(0);
  });

  it("passing the flame makes the new holder the only one who may approve; the old holder is cleared", async () => {
    const [op, first, second, member] = [await operatorOf(), await signUpPoster(), await signUpPoster(), await signUpPoster()];
    expectOk(await makeHolder(op, first));
    expectOk(await call("POST", "/private/core/flame/SMP/delivery", { as: first, body: { targetMemberNo: second.memberNo } }));
    expect(await flameNotices(second, "received")).toContainEqual({ action: "received" });
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: first }))).toMatchObject({ memberNo: second.memberNo, mine: false });
    expectFailure(await call("POST", "/private/core/flame/SMP/delivery", { as: first, body: { targetMemberNo: member.memberNo } }), 403, "403601");
    expectFailure(await approve(first, member), 403, "403601");
    expectOk(await approve(second, member));
    expect(await kyc(member)).toBe(1);
  });

  it("kycStatus 9 counts as verified: basement and leaving a message", async () => {
    const [ai, other] = [await signUpPoster(), await signUpPoster()];
    await setKyc(ai, 9);
    expectOk(await call("GET", "/private/core/basement", { as: ai }));
    expectOk(await leave(ai, other));
    expectFailure(await ask(ai), 409, "409603");
  });
});

describe("operator grants", () => {
  it("only an operator of the tenant names the holder or grants the AI room; others and another tenant's operator get 404", async () => {
    const [op, member, stranger] = [await operatorOf(), await signUpPoster(), await signUpPoster()];
    const foreign = await operatorOf("XYZ");
    const before = expectOk(await call("GET", "/private/core/flame/SMP/last", { as: op })).memberNo;
    for (const who of [stranger, member, foreign]) {
      expectFailure(await makeHolder(who, member), 404, "404000");
      expectFailure(await grantAi(who, member), 404, "404000");
    }
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: op })).memberNo).toBe(before);
    expect(await kyc(member)).toBe(0);

    expectOk(await ask(member));
    expect(expectOk(await grantAi(op, member))).toEqual({ memberNo: member.memberNo, kycStatus: 9 });
    expect(await kyc(member)).toBe(9);
    expect(await flameNotices(member, "aiRoom")).toContainEqual({ action: "aiRoom", by: "operator" });
    expect(await env.DB.prepare("select status from verification_requests where member_id = ?").bind(member.memberId).first("status")).toBe("approved");
    // An unknown or another tenant's member number is "not found".
    const elsewhere = await signUp("XYZ");
    expectFailure(await makeHolder(op, elsewhere), 404);
  });

  it("an operator can reassign the flame", async () => {
    const [op, a, b] = [await operatorOf(), await signUpPoster(), await signUpPoster()];
    expectOk(await makeHolder(op, a));
    expectOk(await makeHolder(op, b));
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: a }))).toMatchObject({ memberNo: b.memberNo, mine: false });
  });
});
