import { redirect, type AppLoadContext } from "react-router";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import { callApi, sessionHeaders } from "../../lib/api.server";
import type { PublicProfilePageData } from "./public-profile";

type Ctx = { context: AppLoadContext; request: Request };

/**
 * Reads as the member when the page carries a session (blocks and avatar rules apply), else publicly.
 * An expired session falls back to the public read: share pages are for visitors too (§6).
 */
export async function readAsViewer<T>({ context, request }: Ctx, path: string, fallback: T): Promise<T> {
  let body;
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

export async function loadPublicProfile(ctx: Ctx, projectCode: string, simpleCode: string): Promise<PublicProfilePageData> {
  const p = projectCode.toUpperCase();
  const code = encodeURIComponent(simpleCode);
  const profile = await readAsViewer<PublicProfilePageData["profile"] | null>(ctx, `/core/profiles/${p}/member/${code}`, null);
  if (!profile) throw new Response("Not found", { status: 404 });
  const private_ = Boolean(sessionHeaders(ctx.request));
  const [characters, actions, footprints, banners, hot, newbie, online, speech] = await Promise.all([
    readAsViewer(ctx, `/sns/characters/${p}?memberNo=${code}`, []),
    readAsViewer(ctx, `/sns/actions/${p}/${code}`, []),
    readAsViewer(ctx, `/sns/visitors/${p}/code/${code}?pageSize=30`, []),
    readAsViewer(ctx, private_ ? `/core/banners/users/${code}` : `/core/banners/users/${code}?project=${p}`, []),
    readAsViewer<ProfileSummary[]>(ctx, `/core/profiles/${p}/hot?pageSize=20`, []),
    readAsViewer<ProfileSummary[]>(ctx, `/core/profiles/${p}/new?pageSize=20`, []),
    readAsViewer<ProfileSummary[]>(ctx, `/core/profiles/${p}/last-access?pageSize=20`, []),
    readAsViewer<ProfileSummary[]>(ctx, `/core/profiles/${p}/last-chat-message?pageSize=20`, []),
  ]);
  return { profile, characters, actions, footprints, banners, lists: { hot, newbie, online, speech } };
}

/** §2: the public profile code comes from the path, or query c / sharingCode; none → profiles. */
export function shareCode(request: Request, projectCode: string, fromPath?: string): string {
  const url = new URL(request.url);
  const code = fromPath ?? url.searchParams.get("c") ?? url.searchParams.get("sharingCode");
  if (!code) throw redirect(`/${projectCode.toLowerCase()}/profiles`);
  return code;
}
