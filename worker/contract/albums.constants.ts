/** Zod-free part of ./albums.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

/**
 * Albums and photos (§3, §7 Social). Private calls (/api/v{6,7}/private):
 *   POST   /sns/albums {title, secretKey}               create (key stored hashed)
 *   GET    /sns/albums                                  my albums
 *   GET    /sns/albums/{idAlbum}?secretKey              one album (owner, grantee, key holder; open albums to all)
 *   DELETE /sns/albums/{idAlbum}                        owner deletes
 *   GET    /sns/member-albums/{memberNo}                a member's albums (locked ones show no photos or count)
 *   POST   /sns/albums/{idAlbum}/files multipart {file} owner uploads; scrambled with the key when the album has one
 *   POST   /sns/photos {idAlbum, filePath, description?} add an uploaded file as a photo
 *   DELETE /sns/photos/{idPhoto}                        owner deletes
 *   GET    /sns/albums/{idAlbum}/grants                 who has access (owner)
 *   POST   /sns/albums/{idAlbum}/grants {memberNo}      grant a named member
 *   DELETE /sns/albums/{idAlbum}/grants/{memberNo}      revoke at once
 * Public (visitors, §6 "may view public albums"):
 *   GET /sns/albums/{project}/{idAlbum}?secretKey, GET /sns/member-albums/{project}/{memberNo}
 */
export const ALBUM_PATHS = {
  albums: "/sns/albums",
  album: (idAlbum: number) => `/sns/albums/${idAlbum}`,
  publicAlbum: (project: string, idAlbum: number) => `/sns/albums/${project}/${idAlbum}`,
  memberAlbums: (memberNo: string) => `/sns/member-albums/${memberNo}`,
  publicMemberAlbums: (project: string, memberNo: string) => `/sns/member-albums/${project}/${memberNo}`,
  files: (idAlbum: number) => `/sns/albums/${idAlbum}/files`,
  photos: "/sns/photos",
  photo: (idPhoto: number) => `/sns/photos/${idPhoto}`,
  grants: (idAlbum: number) => `/sns/albums/${idAlbum}/grants`,
  grant: (idAlbum: number, memberNo: string) => `/sns/albums/${idAlbum}/grants/${memberNo}`,
} as const;
