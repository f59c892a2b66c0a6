import { redirect, type AppLoadContext } from "react-router";
import { SUCCESS_CODE, type Envelope } from "../../worker/contract/envelope";
import { SESSION_COOKIE } from "../../worker/contract/session";

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(/;\s*/)) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
  }
  return null;
}

/** The session a page request carries in its HttpOnly cookie, as the API's private headers. */
export function sessionHeaders(request: Request): Record<string, string> | null {
  const cookie = readCookie(request, SESSION_COOKIE);
  const [memberId, token] = cookie?.split(".") ?? [];
  return memberId && token ? { "X-Member-ID": memberId, "X-Access-Token": token } : null;
}

type CallOptions = {
  method?: string;
  body?: unknown;
  private?: boolean;
  /** Extra request headers (e.g. a cookie the API reads besides the session). */
  headers?: Record<string, string>;
  /** Sees the API's response headers (e.g. a Set-Cookie the page passes on). */
  onHeaders?: (headers: Headers) => void;
};

/**
 * Loaders and actions call the API in-process. Private calls forward the page's session; a missing
 * or expired session redirects to login (§2).
 */
export async function callApi<T>(context: AppLoadContext, request: Request, path: string, options: CallOptions = {}): Promise<Envelope<T>> {
  const headers = new Headers({ Accept: "application/json" });
  const forwarded = ["Accept-Language", "CF-Connecting-IP"];
  for (const name of forwarded) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (options.private) {
    const session = sessionHeaders(request);
    if (!session) throw redirect(loginPath(request));
    for (const [k, v] of Object.entries(session)) headers.set(k, v);
  }
  if (options.body !== undefined) headers.set("Content-Type", "application/json");
  for (const [k, v] of Object.entries(options.headers ?? {})) headers.set(k, v);
  const url = new URL(`/api/v7/${options.private ? "private" : "public"}${path}`, request.url);
  const response = await context.api(
    new Request(url, {
      method: options.method ?? (options.body !== undefined ? "POST" : "GET"),
      headers,
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    }),
  );
  options.onHeaders?.(response.headers);
  const body = (await response.json()) as Envelope<T>;
  if (options.private && (body.returnCode === "100003" || body.returnCode === "401000")) throw redirect(loginPath(request));
  return body;
}

/** Like callApi but returns `info` or throws the failure as a response for the ErrorBoundary. */
export async function loadApi<T>(context: AppLoadContext, request: Request, path: string, options: CallOptions = {}): Promise<T> {
  const body = await callApi<T>(context, request, path, options);
  if (body.returnCode !== SUCCESS_CODE) {
    const status = Number(body.returnCode.slice(0, 3));
    throw new Response(body.returnMessage, { status: status >= 400 && status < 600 ? status : 500 });
  }
  return (body as { info: T }).info;
}

export function projectFromRequest(request: Request) {
  return new URL(request.url).pathname.split("/")[1] || "smp";
}

export function loginPath(request: Request) {
  return `/${projectFromRequest(request)}/login`;
}

/** §2: private pages without a session go to login. Returns the session headers. */
export function requireSessionCookie(request: Request) {
  const session = sessionHeaders(request);
  if (!session) throw redirect(loginPath(request));
  return session;
}
