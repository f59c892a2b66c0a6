import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp } from "../support/client";

const count = async (memberId: string) =>
  (await env.DB.prepare("select count(*) as n from feedback where member_id = ?").bind(memberId).first<{ n: number }>())!.n;

describe("POST /cs/feedback/{project}", () => {
  it("stores the trimmed message for operators", async () => {
    const member = await signUp();
    const info = expectOk(await call("POST", "/private/cs/feedback/smp", { as: member, body: { message: "  The roulette is great  " } }));
    expect(info.idFeedback).toBeGreaterThan(0);
    expect(info.dateAdd).toMatch(/Z$/);
    const row = await env.DB.prepare("select project_code, message from feedback where id_feedback = ?").bind(info.idFeedback).first<{ project_code: string; message: string }>();
    expect(row).toEqual({ project_code: "SMP", message: "The roulette is great" });
  });

  it("refuses an empty or whitespace-only message and stores nothing", async () => {
    const member = await signUp();
    for (const body of [{}, { message: "" }, { message: "   \n\t " }, { message: 42 }, { message: "x".repeat(2001) }]) {
      const reply = await call("POST", "/private/cs/feedback/SMP", { as: member, body });
      expectFailure(reply, 400, "400000");
      expect(Array.isArray(reply.body.issues)).toBe(true);
    }
    expect(await count(member.memberId)).toBe(0);
  });

  it("needs a session", async () => {
    expectFailure(await call("POST", "/private/cs/feedback/SMP", { body: { message: "hello" } }), 401, "401000");
  });

  it("is scoped to the caller's tenant and a valid project code", async () => {
    const other = await signUp("ABC");
    expectFailure(await call("POST", "/private/cs/feedback/SMP", { as: other, body: { message: "hello" } }), 404);
    expectFailure(await call("POST", "/private/cs/feedback/SMPX", { as: other, body: { message: "hello" } }), 400, "400001");
    expect(await count(other.memberId)).toBe(0);
    expectOk(await call("POST", "/private/cs/feedback/abc", { as: other, body: { message: "hello" } }));
    expect(await count(other.memberId)).toBe(1);
  });

  it("is not readable by other members through any feedback path", async () => {
    const member = await signUp();
    expectOk(await call("POST", "/private/cs/feedback/SMP", { as: member, body: { message: "secret confession" } }));
    const other = await signUp();
    const reply = await call("GET", "/private/cs/feedback/SMP", { as: other });
    expectFailure(reply, 404);
    expect(JSON.stringify(reply.body)).not.toContain("secret confession");
  });
});
