import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/test-entry";
import { MIN_SECRET_LENGTH, configProblems } from "../../worker/http/config-guard";
import { uniqueEmail } from "../support/client";

/**
 * Fail closed on configuration (README Decisions): the worker never runs on a missing, empty or short secret. It
 * answers every request — API, pages, media, sockets — with 503 and logs why once per isolate.
 */
const base = env as unknown as Record<string, unknown>;
const without = (changes: Record<string, string | undefined>) => {
  const copy: Record<string, unknown> = { ...base };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete copy[name];
    else copy[name] = value;
  }
  return copy as unknown as Env;
};
async function fetchWith(target: Env, path: string, init?: RequestInit) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://velvet.test${path}`, init), target, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}
const short = "x".repeat(MIN_SECRET_LENGTH - 1);
const broken: [string, Record<string, string | undefined>][] = [
  ["JWT_SECRET missing", { JWT_SECRET: undefined }],
  ["JWT_SECRET empty", { JWT_SECRET: "" }],
  ["JWT_SECRET too short", { JWT_SECRET: short }],
  ["SEAL_SECRET missing", { SEAL_SECRET: undefined }],
  ["SEAL_SECRET empty", { SEAL_SECRET: "" }],
  ["SEAL_SECRET too short", { SEAL_SECRET: short }],
  ["SIGNAL_SECRET missing", { SIGNAL_SECRET: undefined }],
  ["SIGNAL_SECRET too short", { SIGNAL_SECRET: short }],
  // Web push (README Configuration): the VAPID pair and subject, checked for shape too.
  ["VAPID_PRIVATE_KEY missing", { VAPID_PRIVATE_KEY: undefined }],
  ["VAPID_PUBLIC_KEY not a P-256 point", { VAPID_PUBLIC_KEY: "x".repeat(64) }],
  ["VAPID_PRIVATE_KEY not 32 bytes", { VAPID_PRIVATE_KEY: "AAAA" }],
  ["VAPID_SUBJECT not mailto/https", { VAPID_SUBJECT: "http://velvet.example" }],
];

afterEach(() => vi.restoreAllMocks());

describe("without its secrets the worker", () => {
  it("logs why once per isolate, not once per request", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const target = without({ JWT_SECRET: undefined, SEAL_SECRET: "" });
    for (let i = 0; i < 3; i++) expect((await fetchWith(target, "/api/v7/public/health")).status).toBe(503);
    const lines = log.mock.calls.map((args) => String(args[0])).filter((line) => line.includes("not configured"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("JWT_SECRET is missing or empty");
    expect(lines[0]).toContain("SEAL_SECRET is missing or empty");
  });

  for (const [name, changes] of broken) {
    it(`answers every request with 503 (${name})`, async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const target = without(changes);
      // The API: the envelope, with its own code.
      for (const [method, path] of [
        ["GET", "/api/v7/public/health"],
        ["GET", "/api/v6/public/core/profiles/SMP/hot"],
        ["POST", "/api/v7/private/core/sessions/ticket"],
        ["POST", "/api/v3/storage"],
        ["GET", "/api/v7/no-such-route"],
      ] as const) {
        const response = await fetchWith(target, path, { method });
        expect([path, response.status]).toEqual([path, 503]);
        expect(response.headers.get("Cache-Control")).toBe("no-store");
        const body = (await response.json()) as Record<string, string>;
        expect(body).toMatchObject({ returnCode: "503000", returnMessage: "Service unavailable: the server is not configured" });
        expect(body.requestId).toBeTruthy();
      }
      // Media, pages and sockets: plain text, no upgrade.
      for (const path of ["/media/SMP/12345678/avatar/abcdefabcdefabcdefabcdef.jpg", "/SMP/home", "/", "/output/x.png"]) {
        const response = await fetchWith(target, path);
        expect([path, response.status]).toEqual([path, 503]);
        expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
        expect(await response.text()).toContain("not configured");
      }
      const socket = await fetchWith(target, "/parties/chat-room/SMP-public?ticket=x", { headers: { Upgrade: "websocket" } });
      expect(socket.status).toBe(503);
      expect(socket.webSocket).toBeNull();
    });
  }

  it("runs nothing: a sign-up or a login answers 503 and writes no row", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const target = without({ JWT_SECRET: undefined });
    const email = uniqueEmail("unconfigured");
    const body = JSON.stringify({ username: email, password: "correct horse battery", adult: true });
    const signUp = await fetchWith(target, "/api/v7/public/core/members/SMP", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    expect(signUp.status).toBe(503);
    expect(await env.DB.prepare("select count(*) as n from members where email = ?").bind(email).first("n")).toBe(0);
    // The same request with the secrets in place works.
    const configured = await fetchWith(env, "/api/v7/public/core/members/SMP", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    expect(configured.status).toBe(200);
  });

  it("runs normally with its secrets of 32 characters or more", async () => {
    expect(configProblems(env)).toEqual([]);
    const vapid = { VAPID_PUBLIC_KEY: base.VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: base.VAPID_PRIVATE_KEY, VAPID_SUBJECT: base.VAPID_SUBJECT };
    expect(configProblems({ JWT_SECRET: "j".repeat(32), SEAL_SECRET: "s".repeat(32), SIGNAL_SECRET: "h".repeat(32), ...vapid })).toEqual([]);
    expect(configProblems({ JWT_SECRET: "j".repeat(31), SEAL_SECRET: "s".repeat(32), SIGNAL_SECRET: "h".repeat(32), ...vapid })).toEqual(["JWT_SECRET is shorter than 32 characters"]);
    expect(configProblems(undefined)).toHaveLength(6);
    expect((await fetchWith(env, "/api/v7/public/health")).status).toBe(200);
  });
});
