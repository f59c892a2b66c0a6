import { z } from "zod";
import { LoginPassword } from "./common";

/** DELETE /core/members/{memberId}: the member confirms with their current password. */
/** `password` may be '' only for an account that signs in with LINE alone (its proof is a fresh LINE sign-in). */
export const DeleteAccountBody = z.object({ password: z.union([LoginPassword, z.literal("")]) });

/** GET /core/members/{memberId}/export: every stored row about the member, table by table. */
export type DataExport = {
  exportedAt: string;
  memberId: string;
  memberNo: string;
  projectCode: string;
  tables: Record<string, Record<string, unknown>[]>;
  /** R2 objects the member uploaded (keys under `<PROJECT>/<memberNo>/`). */
  media: { key: string; size: number; url: string }[];
};

export type AccountDeleted = { deleted: true; mediaRemoved: number };
