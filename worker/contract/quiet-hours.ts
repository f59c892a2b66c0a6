import { z } from "zod";

/** An IANA time zone name the runtime knows ("Asia/Tokyo", "UTC"); anything else is refused (400). */
export function isTimeZone(name: string) {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const Hour = z.number().int().min(0).max(23);

/**
 * Quiet hours for web push (README Decisions "Push that reaches a closed app"): off, or whole hours in the member's
 * time zone — start inclusive, end exclusive; a start after the end spans midnight (22 → 7). Start = end is refused
 * (it would mean "never" or "always" without saying which).
 */
export const QuietHoursBody = z.union([
  z.object({ enabled: z.literal(false) }).strict(),
  z
    .object({ enabled: z.literal(true), startHour: Hour, endHour: Hour, timeZone: z.string().refine(isTimeZone, "unknown time zone") })
    .strict()
    .refine((v) => v.startHour !== v.endHour, { message: "start and end must differ", path: ["endHour"] }),
]);
export type QuietHoursInput = z.infer<typeof QuietHoursBody>;

export type QuietHours = { enabled: false } | { enabled: true; startHour: number; endHour: number; timeZone: string };
