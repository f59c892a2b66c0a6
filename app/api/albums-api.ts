import type { Album, AlbumGrant, Photo } from "../../worker/contract/albums";
import { ALBUM_PATHS } from "../../worker/contract/albums.constants";
import { api } from "../lib/api";
import { readSession } from "../lib/session-keys";

/** The album endpoints (§7 sns albums), each with its path, method and answer type written once. */

export const createAlbum = (title: string, secretKey: string) => api<Album>(`/private${ALBUM_PATHS.albums}`, { body: { title, secretKey } });
export const deleteAlbum = (idAlbum: number) => api(`/private${ALBUM_PATHS.album(idAlbum)}`, { method: "DELETE" });
/** Unlock with the album's secret key (a visitor unlocks through the public path of the tenant). */
export const unlockAlbum = (projectCode: string, idAlbum: number, secretKey: string) =>
  api<Album>(readSession() ? `/private${ALBUM_PATHS.unlock(idAlbum)}` : `/public${ALBUM_PATHS.publicUnlock(projectCode.toUpperCase(), idAlbum)}`, {
    body: { secretKey },
  });

export const addPhoto = (idAlbum: number, filePath: string) => api<Photo>(`/private${ALBUM_PATHS.photos}`, { body: { idAlbum, filePath } });
export const deletePhoto = (idPhoto: number) => api(`/private${ALBUM_PATHS.photo(idPhoto)}`, { method: "DELETE" });

export const grantAlbum = (idAlbum: number, memberNo: string) => api<AlbumGrant[]>(`/private${ALBUM_PATHS.grants(idAlbum)}`, { body: { memberNo } });
export const revokeAlbum = (idAlbum: number, memberNo: string) => api<AlbumGrant[]>(`/private${ALBUM_PATHS.grant(idAlbum, memberNo)}`, { method: "DELETE" });
