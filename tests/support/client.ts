import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import type { SessionInfo } from "../../worker/contract/session";
import { settleDeferredWrites } from "../../worker/db/deferred-writes";

export type Json = Record<string, any>;
export type Reply = { status: number; body: Json; headers: Headers };
export type Member = SessionInfo & { password: string; email: string; headers: Record<string, string> };

const BASE = "http://velvet.test";
let counter = 0;

/** A unique address per call, so tests never depend on each other's data. */
export const uniqueEmail = (prefix = "member") => `${prefix}.${Date.now().toString(36)}.${++counter}@example.com`;

export async function fetchWorker(path: string, init?: RequestInit): Promise<Response> {
  return (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default.fetch(new Request(`${BASE}${path}`, init));
}

/** Calls `/api/v7{path}`. A string body is sent as-is (for malformed JSON tests). */
export async function call(
  method: string,
  path: string,
  options: { body?: unknown; as?: Pick<Member, "headers"> | null; headers?: Record<string, string>; version?: 6 | 7 } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.as?.headers ?? {}), ...(options.headers ?? {}) };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (typeof options.body === "string") {
    body = options.body;
    headers["Content-Type"] ??= "application/json";
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const response = await fetchWorker(`/api/v${options.version ?? 7}${path}`, { method, headers, body });
  const text = await response.text();
  // Writes a read caused (a view's footprint, a search's keyword count) land after the response
  // (worker/db/deferred-writes.ts): a test's next step sees them, as a member's next page would. fetchWorker does not wait.
  await settleDeferredWrites();
  let parsed: Json;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { notJson: text };
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export const headersFor = (info: Pick<SessionInfo, "token" | "memberId">) => ({ "X-Access-Token": info.token, "X-Member-ID": info.memberId });

/**
 * Signs up a fresh member through the API (the real path, never a direct insert). `avatar: true` gives them a
 * qualifying avatar (`withAvatar`): §5/§6 let only such members post, so a test that posts without being about
 * the posting rules asks for one.
 */
export async function signUp(project = "SMP", options: { email?: string; password?: string; avatar?: boolean } = {}): Promise<Member> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? "correct horse battery";
  const reply = await call("POST", `/public/core/members/${project}`, { body: { username: email, password, adult: true } });
  if (reply.status !== 200) throw new Error(`sign-up failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  const info = reply.body.info as SessionInfo;
  const member = { ...info, email, password, headers: headersFor(info) };
  if (options.avatar) await withAvatar(member);
  return member;
}

/** A signed-up member who may post (§5/§6: a qualifying avatar). */
export const signUpPoster = (project = "SMP") => signUp(project, { avatar: true });

/**
 * Stores a qualified avatar and its blurred rendition the way the profile API would (no upload: the image pipeline
 * is tested in media and profile tests), so the member passes the §5/§6 posting rules.
 */
export async function withAvatar<M extends Pick<Member, "memberId" | "memberNo" | "projectCode">>(member: M): Promise<M> {
  await env.DB.prepare("update profiles set avator = ?, avator_blur = ?, qualify = 1, blur = 0 where member_id = ?")
    .bind(`/media/${member.projectCode}/${member.memberNo}/avatar/poster.jpg`, `/media/${member.projectCode}/${member.memberNo}/blur/poster.jpg`, member.memberId)
    .run();
  return member;
}

export async function login(project: string, email: string, password: string) {
  return call("POST", `/public/core/sessions/${project}`, { body: { username: email, password } });
}

/** Asserts the §7 failure envelope shape and returns it. */
export function expectFailure(reply: Reply, status: number, returnCode?: string) {
  if (reply.status !== status) throw new Error(`expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  if (typeof reply.body.returnCode !== "string" || !/^\d{6}$/.test(reply.body.returnCode)) {
    throw new Error(`not an envelope: ${JSON.stringify(reply.body)}`);
  }
  if (returnCode && reply.body.returnCode !== returnCode) throw new Error(`expected code ${returnCode}, got ${reply.body.returnCode}`);
  if (typeof reply.body.returnMessage !== "string" || JSON.stringify(reply.body).includes("    at ")) throw new Error("bad failure body");
  return reply.body;
}

export function expectOk(reply: Reply) {
  if (reply.status !== 200 || reply.body.returnCode !== "000000") {
    throw new Error(`expected success, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
  return reply.body.info;
}
