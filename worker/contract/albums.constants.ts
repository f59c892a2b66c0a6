/** Zod-free part of ./albums.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

/**
 * Albums and photos (§3, §7 Social). Private calls (/api/v{6,7}/private):
 *   POST   /sns/albums {title, secretKey}               create (key stored hashed)
 *   GET    /sns/albums                                  my albums
 *   GET    /sns/albums/{idAlbum}                        one album (owner, grantee, holder of a live unlock; open albums to all)
 *   POST   /sns/albums/{idAlbum}/unlock {secretKey}     prove the key: the album with photos and seed, plus an unlock cookie
 *   DELETE /sns/albums/{idAlbum}                        owner deletes
 *   GET    /sns/member-albums/{memberNo}                a member's albums (locked ones show no photos or count)
 *   POST   /sns/albums/{idAlbum}/files multipart {file} owner uploads; scrambled with the key when the album has one
 *   POST   /sns/photos {idAlbum, filePath, description?} add an uploaded file as a photo
 *   DELETE /sns/photos/{idPhoto}                        owner deletes
 *   GET    /sns/albums/{idAlbum}/grants                 who has access (owner)
 *   POST   /sns/albums/{idAlbum}/grants {memberNo}      grant a named member
 *   DELETE /sns/albums/{idAlbum}/grants/{memberNo}      revoke at once
 * Public (visitors, §6 "may view public albums"):
 *   GET /sns/albums/{project}/{idAlbum}, POST /sns/albums/{project}/{idAlbum}/unlock {secretKey},
 *   GET /sns/member-albums/{project}/{memberNo}
 * A secret key never travels in an address: `?secretKey=` on the API is refused (400804).
 * Keyed albums' files are served at /private-media/<key> (worker/features/media/private-media.routes.ts).
 */
export const ALBUM_PATHS = {
  albums: "/sns/albums",
  album: (idAlbum: number) => `/sns/albums/${idAlbum}`,
  publicAlbum: (project: string, idAlbum: number) => `/sns/albums/${project}/${idAlbum}`,
  unlock: (idAlbum: number) => `/sns/albums/${idAlbum}/unlock`,
  publicUnlock: (project: string, idAlbum: number) => `/sns/albums/${project}/${idAlbum}/unlock`,
  memberAlbums: (memberNo: string) => `/sns/member-albums/${memberNo}`,
  publicMemberAlbums: (project: string, memberNo: string) => `/sns/member-albums/${project}/${memberNo}`,
  files: (idAlbum: number) => `/sns/albums/${idAlbum}/files`,
  photos: "/sns/photos",
  photo: (idPhoto: number) => `/sns/photos/${idPhoto}`,
  grants: (idAlbum: number) => `/sns/albums/${idAlbum}/grants`,
  grant: (idAlbum: number, memberNo: string) => `/sns/albums/${idAlbum}/grants/${memberNo}`,
} as const;

/** Shortest secret key a new album accepts (400803), counted in characters. */
export const ALBUM_KEY_MIN_LENGTH = 8;
/** Wrong keys one keyed album takes per hour from everyone together (429801 after). */
export const ALBUM_KEY_BUDGET = 10;
export const ALBUM_KEY_WINDOW_MS = 3_600_000;
/**
 * A proven key is remembered in an HttpOnly cookie per album (a signed, 30-minute unlock bound to the member, or
 * to the browser for visitors): the album's API read and its /private-media files accept it, so `<img>` loads work.
 */
export const albumUnlockCookie = (idAlbum: number) => `velvet_album_${idAlbum}`;
export const ALBUM_UNLOCK_SECONDS = 30 * 60;
