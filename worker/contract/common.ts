import { z } from "zod";

/** Shared field schemas. */
export const Email = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const NewPassword = z.string().min(8, "Password must be at least 8 characters").max(200);
export const LoginPassword = z.string().min(1).max(200);
export const MemberNo = z.string().regex(/^\d{1,12}$/, "Invalid member number");
/**
 * A number, or a string holding one (paths, queries and forms carry numbers as text). Unlike `z.coerce.number()`,
 * it refuses everything else: `Number([4])`, `Number(true)` and `Number(null)` would otherwise slip through as 4, 1, 0.
 */
export const numeric = () =>
  z.preprocess((value) => (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value), z.number());
/** Bounded pageSize (§9 defaults are per call). */
export const pageSize = (fallback: number, max = 500) => numeric().pipe(z.number().int().min(1).max(max)).default(fallback);
export const IdParam = numeric().pipe(z.number().int().positive());
export const Language = z.enum(["en", "ja", "zh-CN", "zh-TW"]);
export type Language = z.infer<typeof Language>;
