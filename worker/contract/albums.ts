import { z } from "zod";
import { numeric } from "./common";
import type { ProfileSummary } from "./profile-summary";
// The calls (paths, who may make them) are listed beside the path table in ./albums.constants.ts.
export * from "./albums.constants";

export const CreateAlbumBody = z.object({
  title: z.string().trim().min(1, "Title is required").max(80),
  /** Empty or absent: an open album; otherwise at least ALBUM_KEY_MIN_LENGTH characters (400803). */
  secretKey: z.string().max(64).optional().default(""),
});
/** The key to prove, in the body (never in the address). */
export const UnlockBody = z.object({ secretKey: z.string().min(1, "Enter the secret key").max(64) });
export const IdAlbumParam = z.object({ idAlbum: numeric().pipe(z.number().int().positive()) });
export const IdPhotoParam = z.object({ idPhoto: numeric().pipe(z.number().int().positive()) });
export const CreatePhotoBody = z.object({
  idAlbum: numeric().pipe(z.number().int().positive()),
  filePath: z.string().min(1).max(300),
  description: z.string().trim().max(300).optional().default(""),
});
export const GrantBody = z.object({ memberNo: z.string().regex(/^\d{1,12}$/, "Invalid member number") });

export type Photo = { idPhoto: number; idAlbum: number; filePath: string; description: string };

/** How the caller got in: owner, open album, a live grant, or a key proven to the server (a live unlock). */
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
  /**
   * Hex seed for unscrambling (random per album, never derived from the key), given only after the server checked
   * the caller: owner, grantee, or key holder.
   */
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
