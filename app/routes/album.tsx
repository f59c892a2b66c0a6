import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/album";
import { ALBUM_PATHS, albumUnlockCookie } from "../../worker/contract/albums.constants";
import type { Album } from "../../worker/contract/albums";
import { AlbumImage } from "../features/albums/album-image";
import { useSeed } from "../features/albums/use-seed";
import * as albums from "../api/albums-api";
import { callApi, loadApi, readCookie, sessionHeaders } from "../lib/api.server";
import { errorText } from "../lib/error-text";
import "../features/albums/albums.css";

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `Velvet · ${data.album.title}` : "Velvet" }];

/**
 * §6: visitors may view public albums; members also get the owner's and grantees' access. A key proven in this
 * browser within the last half hour (the album's HttpOnly unlock cookie) opens it again on reload.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = Number(params.idAlbum);
  if (!Number.isInteger(id) || id < 1) throw new Response("Not found", { status: 404 });
  const project = params.projectCode.toUpperCase();
  const unlock = readCookie(request, albumUnlockCookie(id));
  const headers = unlock ? { Cookie: `${albumUnlockCookie(id)}=${unlock}` } : undefined;
  if (sessionHeaders(request)) {
    const body = await callApi<Album>(context, request, ALBUM_PATHS.album(id), { private: true, headers });
    if ("info" in body) return { album: body.info };
  }
  return { album: await loadApi<Album>(context, request, ALBUM_PATHS.publicAlbum(project, id), { headers }) };
}

/** §2 albums/{idAlbum}: the public view with an unlock field for keyed albums. */
export default function AlbumPage({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("albums");
  const [album, setAlbum] = useState<Album>(loaderData.album);
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const seed = useSeed(album);

  /** The key goes to the server in the body (never the address); the answer sets the unlock cookie for the files. */
  async function unlock(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body = await albums.unlockAlbum(params.projectCode, album.idAlbum, key);
    setBusy(false);
    if ("info" in body) {
      setKey("");
      setAlbum(body.info);
    } else setError(errorText(t, body));
  }

  return (
    <main className="page stack">
      <h1>
        {album.title} {album.locked && <span className="lock-badge">🔒 {t("locked")}</span>}
      </h1>
      {album.profile && <p className="muted">{t("by", { nickname: album.profile.nickname || album.profile.simpleCode })}</p>}
      {!album.photos ? (
        <form className="card form" onSubmit={unlock}>
          <p>{t("unlock.hint")}</p>
          <label className="field">
            <span>{t("secretKey")}</span>
            <input type="password" value={key} maxLength={64} autoComplete="off" required onChange={(e) => setKey(e.target.value)} />
          </label>
          {error && <p role="alert" className="field-error">{error}</p>}
          <button type="submit" className="button button-primary" disabled={busy || !key}>{t("unlock.submit")}</button>
        </form>
      ) : album.photos.length ? (
        <ul className="album-photos" aria-label={t("photos")}>
          {album.photos.map((photo, index) => (
            <li key={photo.idPhoto} className="album-photo">
              <AlbumImage src={photo.filePath} alt={photo.description || t("photoAlt", { title: album.title, n: index + 1 })} seed={album.scrambled ? seed : null} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty-state">{t("noPhotos")}</p>
      )}
    </main>
  );
}
