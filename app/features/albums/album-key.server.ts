import { redirect, type AppLoadContext } from "react-router";
import { ALBUM_PATHS } from "../../../worker/contract/albums.constants";
import type { Album } from "../../../worker/contract/albums";
import { callApi } from "../../lib/api.server";

/**
 * §2 albums/{idAlbum}/edit takes a `secretKey` query. Old links keep working, but the key must not stay in the
 * address bar, the history or anything that logs addresses: it is read once, sent to the server in the body of
 * the unlock call, and the page answers a redirect without it — to the edit page for the owner, to the album for
 * anyone else (carrying the unlock cookie when the key was right, so the photos show there).
 */
export async function leaveKeyOutOfAddress(context: AppLoadContext, request: Request, project: string, idAlbum: number, secretKey: string): Promise<Response> {
  const edit = `/${project}/albums/${idAlbum}/edit`;
  if (!secretKey) return redirect(edit);
  const headers = new Headers();
  const body = await callApi<Album>(context, request, ALBUM_PATHS.unlock(idAlbum), {
    private: true,
    body: { secretKey },
    onHeaders: (answer) => {
      for (const cookie of answer.getSetCookie()) headers.append("Set-Cookie", cookie);
    },
  });
  const owner = "info" in body && body.info.access === "owner";
  return redirect(owner ? edit : `/${project}/albums/${idAlbum}`, { headers });
}
