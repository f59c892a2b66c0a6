import type { SessionInfo } from "../../worker/contract/session";

/** §3: session info kept in local storage under these keys. */
export const SESSION_KEYS = ["token", "memberId", "memberNo", "sessionId", "avator", "expire", "nickname", "projectCode"] as const;

export type StoredSession = Pick<SessionInfo, (typeof SESSION_KEYS)[number]>;

export function saveSession(info: SessionInfo) {
  for (const key of SESSION_KEYS) localStorage.setItem(key, String(info[key] ?? ""));
  if (info.language) localStorage.setItem("language", info.language);
  // §3 `isSafeMode` (the Avatar reads it on every page): this device follows the member's stored switch from the start.
  localStorage.setItem("isSafeMode", info.safeMode ? "true" : "false");
}

export function readSession(): StoredSession | null {
  if (typeof localStorage === "undefined") return null;
  const token = localStorage.getItem("token");
  const memberId = localStorage.getItem("memberId");
  if (!token || !memberId) return null;
  const expire = localStorage.getItem("expire") ?? "";
  if (expire && Date.parse(expire) < Date.now()) return null;
  return Object.fromEntries(SESSION_KEYS.map((k) => [k, localStorage.getItem(k) ?? ""])) as StoredSession;
}

export function clearSession() {
  for (const key of SESSION_KEYS) localStorage.removeItem(key);
}

/**
 * What the browser's API calls carry for the member: the stored session keys (§7) and the tenant they belong to,
 * `X-Project-Code` (README Decisions "A tenant per database": a call whose path names no project reaches the tenant's
 * database by it). Without stored keys the page's own project names it (a cookie-only session).
 */
export function sessionHeaders(session = readSession()): Record<string, string> {
  const project = session?.projectCode || (typeof location === "undefined" ? "" : (location.pathname.split("/")[1] ?? ""));
  const headers: Record<string, string> = /^[A-Za-z]{3}$/.test(project) ? { "X-Project-Code": project.toUpperCase() } : {};
  if (session) {
    headers["X-Access-Token"] = session.token;
    headers["X-Member-ID"] = session.memberId;
  }
  return headers;
}
