/** Times are stored as epoch milliseconds and sent as UTC-suffixed ISO strings (§9). */
export const now = () => Date.now();
export const iso = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());
/** Today's UTC date as YYYY-MM-DD (§9: reminders shown only for today's UTC date). */
export const utcDate = (ms = Date.now()) => new Date(ms).toISOString().slice(0, 10);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
