import { useTranslation } from "react-i18next";
import { useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/albums";
import { ALBUM_PATHS } from "../../worker/contract/albums.constants";
import type { AlbumListItem } from "../../worker/contract/albums";
import { useToast } from "../components/toast";
import { ConfirmDelete, CreateAlbumDialog, OpenAlbumDialog } from "../features/albums/album-dialogs";
import * as albums from "../api/albums-api";
import { loadApi } from "../lib/api.server";
import { errorText } from "../lib/error-text";
import { pageTitle } from "../i18n/page-title";
import "../features/albums/albums.css";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "albums:title") }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { albums: await loadApi<AlbumListItem[]>(context, request, ALBUM_PATHS.albums, { private: true }) };
}

/** §2 albums: list with create and delete; these are the member's own albums, so opening goes straight to edit. */
export default function AlbumsPage({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation("albums");
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const toast = useToast();
  // The owner's own albums: the server gives the owner the seed, so no key is asked for and none goes into the
  // address (where history and logs would keep it).
  const open = (idAlbum: number) => navigate(`/${params.projectCode}/albums/${idAlbum}/edit`);

  async function remove(album: AlbumListItem) {
    const body = await albums.deleteAlbum(album.idAlbum);
    if ("info" in body) {
      toast(t("deleted", { title: album.title }), "delete");
      void revalidator.revalidate();
    } else toast(errorText(t, body), "error");
  }

  return (
    <main className="page stack">
      <div className="albums-header">
        <h1>{t("title")}</h1>
        <CreateAlbumDialog
          onCreated={(album) => {
            toast(t("created", { title: album.title }), "banner");
            void revalidator.revalidate();
          }}
        />
      </div>
      {loaderData.albums.length === 0 ? (
        <p className="empty-state">{t("empty")}</p>
      ) : (
        <ul className="albums-list">
          {loaderData.albums.map((album) => (
            <li key={album.idAlbum} className="card album-card">
              <h2>{album.title}</h2>
              <p className="muted">
                {album.locked && <span className="lock-badge">🔒 {t("locked")} · </span>}
                {t("photoCount", { count: album.photoCount ?? 0 })}
              </p>
              <div className="row">
                {/* These are the member's own albums: the owner is never asked for their own key (the server gives them the seed). */}
                <OpenAlbumDialog title={album.title} locked={false} onOpen={() => open(album.idAlbum)} />
                <ConfirmDelete label={t("deleteNamed", { title: album.title })} question={t("deleteQuestion")} onConfirm={() => void remove(album)} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
