import { z } from "zod";
import { numeric } from "./common";
import type { ProfileSummary } from "./profile-summary";

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

export const CreateAlbumBody = z.object({
  title: z.string().trim().min(1, "Title is required").max(80),
  /** Empty or absent: an open album. */
  secretKey: z.string().max(64).optional().default(""),
});
export const AlbumQuery = z.object({ secretKey: z.string().max(64).optional() });
export const IdAlbumParam = z.object({ idAlbum: numeric().pipe(z.number().int().positive()) });
export const IdPhotoParam = z.object({ idPhoto: numeric().pipe(z.number().int().positive()) });
export const CreatePhotoBody = z.object({
  idAlbum: numeric().pipe(z.number().int().positive()),
  filePath: z.string().min(1).max(300),
  description: z.string().trim().max(300).optional().default(""),
});
export const GrantBody = z.object({ memberNo: z.string().regex(/^\d{1,12}$/, "Invalid member number") });

export type Photo = { idPhoto: number; idAlbum: number; filePath: string; description: string };

/** How the caller got in. Key holders unscramble with the key they typed; others get the seed. */
export type AlbumAccess = "owner" | "grant" | "key" | "open";

export type Album = {
  idAlbum: number;
  title: string;
  /** Never echoed: keys are stored hashed (§3 field kept for shape). */
  secretKey: null;
  /** True when the album has a secret key. */
  locked: boolean;
  profile: ProfileSummary | null;
  timelog: string;
  /** Absent when the caller has no access: a locked album reveals nothing, not even how many photos. */
  photos?: Photo[];
  access?: AlbumAccess;
  /** Photos are stored scrambled (keyed albums). */
  scrambled?: boolean;
  /** Hex seed for unscrambling, given to the owner and grantees (key holders derive it from the key). */
  scrambleSeed?: string;
};

export type AlbumListItem = {
  idAlbum: number;
  title: string;
  secretKey: null;
  locked: boolean;
  timelog: string;
  /** Only for open albums or when the caller has access. */
  photoCount?: number;
};

export type AlbumGrant = { profile: ProfileSummary; timelog: string };
export type UploadedFile = { filePath: string; width: number; height: number; scrambled: boolean };
