import { redirect, type AppLoadContext } from "react-router";
import { callApi, sessionHeaders } from "../../lib/api.server";
import type { PublicProfilePageData } from "./public-profile";

type Ctx = { context: AppLoadContext; request: Request };

/**
 * Reads as the member when the page carries a session (blocks and avatar rules apply), else publicly.
 * An expired session falls back to the public read: share pages are for visitors too (§6).
 */
export async function readAsViewer<T>({ context, request }: Ctx, path: string, fallback: T): Promise<T> {
  let body: Awaited<ReturnType<typeof callApi<T>>>;
  if (sessionHeaders(request)) {
    try {
      body = await callApi<T>(context, request, path, { private: true });
    } catch (error) {
      if (!(error instanceof Response)) throw error;
      body = await callApi<T>(context, request, path);
    }
  } else body = await callApi<T>(context, request, path);
  return "info" in body ? body.info : fallback;
}

/** The public profile page in one in-process call (the API batches every read of the page). */
export async function loadPublicProfile(ctx: Ctx, projectCode: string, simpleCode: string): Promise<PublicProfilePageData> {
  const path = `/core/profiles/${projectCode.toUpperCase()}/page/${encodeURIComponent(simpleCode)}`;
  const page = await readAsViewer<PublicProfilePageData | null>(ctx, path, null);
  if (!page) throw new Response("Not found", { status: 404 });
  return page;
}

/** §2: the public profile code comes from the path, or query c / sharingCode; none → profiles. */
export function shareCode(request: Request, projectCode: string, fromPath?: string): string {
  const url = new URL(request.url);
  const code = fromPath ?? url.searchParams.get("c") ?? url.searchParams.get("sharingCode");
  if (!code) throw redirect(`/${projectCode.toLowerCase()}/profiles`);
  return code;
}
