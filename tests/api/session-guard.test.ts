import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { giveAvatar } from "./profiles-helpers";

// A read whose session this isolate has seen checks it inside its own first batch (worker/features/session/
// session-guard.ts). Every test here reads once to put the session in the isolate's claims, changes the
// session or the member behind the API's back, and reads again: the second read must answer as a fresh lookup would.

const endSession = (m: Member) => env.DB.prepare("update sessions set ended_at = ? where member_id = ?").bind(Date.now(), m.memberId).run();
const visits = async (host: Member) =>
  (await env.DB.prepare("select count(*) as n from visitors where member_id = ?").bind(host.memberId).first<{ n: number }>())!.n;
const profilePage = (host: Member, as: Member) => call("GET", `/private/core/profiles/SMP/page/${host.memberNo}`, { as });

describe("a read with a session the isolate already knows", () => {
  it("answers as before while the session lives, and 100003 the moment it ends", async () => {
    const m = await signUp();
    await endSession(await signUp()); // another member's ended session changes nothing for this one
    const first = await call("GET", `/private/core/home/SMP`, { as: m });
    const second = await call("GET", `/private/core/home/SMP`, { as: m });
    expect(expectOk(second).newbies).toEqual(expectOk(first).newbies);
    // The lookup rode in the call's own batch: one D1 round trip fewer than the first call, which looked it up.
    expect(Number(second.headers.get("X-D1-Queries"))).toBe(Number(first.headers.get("X-D1-Queries")) - 1);

    await endSession(m);
    expectFailure(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }), 401, "100003");
    expectFailure(await call("GET", `/private/core/home/SMP`, { as: m }), 401, "100003");
  });

  it("ends with logout: the expired token reads nothing", async () => {
    const m = await signUp();
    expectOk(await call("GET", "/private/sns/chatroom/velvetPublicChatroom000000000001/messages?pageSize=5", { as: m }));
    expectOk(await call("POST", "/private/core/sessions/expire", { as: m }));
    expectFailure(await call("GET", "/private/sns/chatroom/velvetPublicChatroom000000000001/messages?pageSize=5", { as: m }), 401, "100003");
  });

  it("writes no footprint for a session that ended: the visit rides in the same rolled-back batch", async () => {
    const host = await signUp();
    const viewer = await signUp();
    await giveAvatar(host);
    await giveAvatar(viewer);
    expectOk(await profilePage(host, viewer));
    const before = await visits(host);
    expect(before).toBeGreaterThan(0);

    await endSession(viewer);
    expectFailure(await profilePage(host, viewer), 401, "100003");
    expect(await visits(host)).toBe(before);
  });

  it("re-reads the member when kycStatus changed since: the newly verified member enters the basement at once", async () => {
    const m = await signUp();
    expectFailure(await call("GET", "/private/core/basement?pageSize=10", { as: m }), 403);
    await env.DB.prepare("update profiles set kyc_status = 1 where member_id = ?").bind(m.memberId).run();
    expectOk(await call("GET", "/private/core/basement?pageSize=10", { as: m }));
    await env.DB.prepare("update profiles set kyc_status = 0 where member_id = ?").bind(m.memberId).run();
    expectFailure(await call("GET", "/private/core/basement?pageSize=10", { as: m }), 403);
  });

  it("refuses a member deleted since, and a token presented for another member", async () => {
    const m = await signUp();
    const other = await signUp();
    expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }));
    expectFailure(await call("GET", `/private/core/profiles/${m.memberId}`, { as: { headers: { "X-Access-Token": m.token, "X-Member-ID": other.memberId } } }), 401, "100003");

    await env.DB.prepare("update members set status = 'deleted' where id = ?").bind(m.memberId).run();
    expectFailure(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }), 401, "100003");
  });

  it("checks a Bearer ticket's session the same way", async () => {
    const m = await signUp();
    const { ticket } = expectOk(await call("POST", "/private/core/sessions/ticket", { as: m, body: { audience: "api" } }));
    const bearer = { headers: { Authorization: `Bearer ${ticket}` } };
    expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: bearer }));
    expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: bearer }));
    await endSession(m);
    expectFailure(await call("GET", `/private/core/profiles/${m.memberId}`, { as: bearer }), 401, "100003");
  });

  it("posting a chat message: an ended session stores nothing; a member changed since is answered afresh, body and all", async () => {
    const room = "velvetPublicChatroom000000000001";
    const post = (m: Member, message: string) =>
      call("POST", `/private/sns/chatrooms/${room}/messages/${m.memberId}`, { as: m, body: { message, requestId: crypto.randomUUID() } });
    const stored = async (message: string) =>
      (await env.DB.prepare("select count(*) as n from chat_messages where message = ?").bind(message).first<{ n: number }>())!.n;
    const m = await signUp();
    await giveAvatar(m);
    expectOk(await post(m, "guard: first"));

    await env.DB.prepare("update members set status = 'suspended' where id = ?").bind(m.memberId).run();
    expectFailure(await post(m, "guard: while suspended"), 403, "403209");
    expect(await stored("guard: while suspended")).toBe(0);
    await env.DB.prepare("update members set status = 'active' where id = ?").bind(m.memberId).run();
    expect(expectOk(await post(m, "guard: active again")).message).toBe("guard: active again");
    expect(await stored("guard: active again")).toBe(1);

    await endSession(m);
    expectFailure(await post(m, "guard: after the end"), 401, "100003");
    expect(await stored("guard: after the end")).toBe(0);
  });

  it("still checks writes before they run", async () => {
    const m = await signUp();
    expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }));
    await endSession(m);
    expectFailure(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body: { nickname: "Too late" } }), 401, "100003");
    const row = await env.DB.prepare("select nickname from profiles where member_id = ?").bind(m.memberId).first<{ nickname: string }>();
    expect(row!.nickname).not.toBe("Too late");
  });
});
