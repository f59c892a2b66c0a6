import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, redirect, useRevalidator } from "react-router";
import type { Route } from "./+types/album-edit";
import { ALBUM_PATHS } from "../../worker/contract/albums.constants";
import type { Album, AlbumGrant, Photo, UploadedFile } from "../../worker/contract/albums";
import { useToast } from "../components/toast";
import { UploadProgress } from "../components/upload-progress";
import { ConfirmDelete } from "../features/albums/album-dialogs";
import { AlbumImage } from "../features/albums/album-image";
import { uploadWithProgress } from "../lib/upload";
import { useSeed } from "../features/albums/use-seed";
import * as albums from "../api/albums-api";
import { loadApi } from "../lib/api.server";
import { leaveKeyOutOfAddress } from "../features/albums/album-key.server";
import { errorText } from "../lib/error-text";
import { pageTitle } from "../i18n/page-title";
import "../features/albums/albums.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "albums:title") }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = Number(params.idAlbum);
  if (!Number.isInteger(id) || id < 1) throw new Response("Not found", { status: 404 });
  const secretKey = new URL(request.url).searchParams.get("secretKey");
  if (secretKey !== null) throw await leaveKeyOutOfAddress(context, request, params.projectCode, id, secretKey);
  const album = await loadApi<Album>(context, request, ALBUM_PATHS.album(id), { private: true });
  // Editing is the owner's; anyone else sees the public view with its unlock field.
  if (album.access !== "owner") throw redirect(`/${params.projectCode}/albums/${id}`);
  const grants = album.locked ? await loadApi<AlbumGrant[]>(context, request, ALBUM_PATHS.grants(id), { private: true }) : [];
  return { album, grants };
}

/** §2 albums/{id}/edit: share link with copy (copied toast 1 s), photo upload with progress, delete; grants. */
export default function AlbumEditPage({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("albums");
  const toast = useToast();
  const revalidator = useRevalidator();
  const { album, grants } = loaderData;
  const seed = useSeed(album);
  const [progress, setProgress] = useState<number | null>(null);
  const [shareUrl, setShareUrl] = useState(`/${params.projectCode}/albums/${album.idAlbum}`);
  const [grantNo, setGrantNo] = useState("");
  useEffect(() => setShareUrl(`${location.origin}/${params.projectCode}/albums/${album.idAlbum}`), [params.projectCode, album.idAlbum]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(shareUrl);
      toast(t("copied"), "copied");
    } catch (error) {
      console.warn("clipboard unavailable", error);
      toast(t("copyFailed"), "error");
    }
  }

  async function upload(files: FileList) {
    for (const file of Array.from(files)) {
      const form = new FormData();
      form.set("file", file);
      setProgress(0);
      const stored = await uploadWithProgress<UploadedFile>(`/private${ALBUM_PATHS.files(album.idAlbum)}`, form, setProgress);
      const body = "info" in stored ? await albums.addPhoto(album.idAlbum, stored.info.filePath) : stored;
      setProgress(null);
      if (!("info" in body)) {
        toast(errorText(t, body), "error");
        break;
      }
      toast(t("uploaded"), "success");
    }
    void revalidator.revalidate();
  }

  async function removePhoto(photo: Photo) {
    const body = await albums.deletePhoto(photo.idPhoto);
    if ("info" in body) toast(t("photoDeleted"), "delete");
    else toast(errorText(t, body), "error");
    void revalidator.revalidate();
  }

  async function changeGrant(memberNo: string, revoke: boolean) {
    const body = revoke
      ? await albums.revokeAlbum(album.idAlbum, memberNo)
      : await albums.grantAlbum(album.idAlbum, memberNo);
    if ("info" in body) {
      if (!revoke) setGrantNo("");
      toast(revoke ? t("grants.revoked") : t("grants.granted"), "success");
    } else toast(errorText(t, body), "error");
    void revalidator.revalidate();
  }

  return (
    <main className="page stack">
      <Link className="button back-link" to={`/${params.projectCode}/albums`}>{t("back")}</Link>
      <h1>
        {album.title} {album.locked && <span className="lock-badge">🔒 {t("locked")}</span>}
      </h1>

      <section className="card stack" aria-labelledby="album-share">
        <h2 id="album-share">{t("share.title")}</h2>
        <div className="share-link">
          <input readOnly value={shareUrl} aria-label={t("share.link")} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="button" onClick={() => void copy()}>{t("share.copy")}</button>
        </div>
        {album.locked && <p className="muted">{t("share.keyHint")}</p>}
      </section>

      <section className="card stack" aria-labelledby="album-upload">
        <h2 id="album-upload">{t("upload.title")}</h2>
        <label className="field">
          <span>{t("upload.choose")}</span>
          <input type="file" accept="image/png,image/jpeg" multiple disabled={progress !== null} onChange={(e) => e.target.files?.length && void upload(e.target.files)} />
        </label>
        {progress !== null && <UploadProgress value={progress} label={t("upload.progress")} />}
        {album.scrambled && <p className="muted">{t("upload.scrambledHint")}</p>}
      </section>

      <section className="stack" aria-labelledby="album-photos">
        <h2 id="album-photos">{t("photos")}</h2>
        {album.photos?.length ? (
          <ul className="album-photos">
            {album.photos.map((photo, index) => (
              <li key={photo.idPhoto} className="album-photo">
                <AlbumImage src={photo.filePath} alt={photo.description || t("photoAlt", { title: album.title, n: index + 1 })} seed={album.scrambled ? seed : null} />
                <ConfirmDelete label={t("deletePhoto", { n: index + 1 })} question={t("deletePhotoQuestion")} onConfirm={() => void removePhoto(photo)} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="empty-state">{t("noPhotos")}</p>
        )}
      </section>

      {album.locked && (
        <section className="card stack" aria-labelledby="album-grants">
          <h2 id="album-grants">{t("grants.title")}</h2>
          <p className="muted">{t("grants.hint")}</p>
          <form className="share-link" onSubmit={(e) => { e.preventDefault(); void changeGrant(grantNo.trim(), false); }}>
            <input value={grantNo} inputMode="numeric" aria-label={t("grants.memberNo")} placeholder={t("grants.memberNo")} onChange={(e) => setGrantNo(e.target.value)} />
            <button type="submit" className="button button-primary" disabled={!grantNo.trim()}>{t("grants.grant")}</button>
          </form>
          {grants.length ? (
            <ul className="grant-list">
              {grants.map((g) => (
                <li key={g.profile.simpleCode}>
                  <span>{g.profile.nickname || g.profile.simpleCode} <span className="muted">#{g.profile.simpleCode}</span></span>
                  <button type="button" className="button button-danger" onClick={() => void changeGrant(g.profile.simpleCode, true)}>
                    {t("grants.revoke", { name: g.profile.nickname || g.profile.simpleCode })}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t("grants.none")}</p>
          )}
        </section>
      )}
    </main>
  );
}
