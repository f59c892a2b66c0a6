import { z } from "zod";

/** Shared field schemas. */
export const Email = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const NewPassword = z.string().min(8, "Password must be at least 8 characters").max(200);
export const LoginPassword = z.string().min(1).max(200);
export const MemberNo = z.string().regex(/^\d{1,12}$/, "Invalid member number");
/** Bounded pageSize (§9 defaults are per call). */
export const pageSize = (fallback: number, max = 500) =>
  z.coerce.number().int().min(1).max(max).default(fallback);
export const IdParam = z.coerce.number().int().positive();
export const Language = z.enum(["en", "ja", "zh-CN", "zh-TW"]);
export type Language = z.infer<typeof Language>;
