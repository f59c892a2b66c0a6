/**
 * Dates, times and numbers in the member's language: every screen formats through here, with
 * the active i18next language (en, ja, zh-CN, zh-TW), as Intl writes them. Pure functions, safe on server and client.
 *
 * Time zone: pass `timeZone` explicitly. Components use `useFormat()` (./use-format), which formats in UTC
 * for the server render and the hydration pass (both sides agree) and in the member's own zone after.
 */

export type DateInput = Date | string | number;

/** Named shapes so every screen shows the same kind of date the same way. */
export const DATE_PRESETS = {
  /** Nov 17, 2026 · 2026年11月17日 */
  date: { year: "numeric", month: "short", day: "numeric" },
  /** Nov 17, 2026, 3:05 PM · 2026年11月17日 15:05 */
  dateTime: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  /** 11/17, 3:05 PM · 11/17 15:05 (chat messages) */
  shortDateTime: { month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit" },
  /** 3:05 PM · 15:05 */
  time: { hour: "numeric", minute: "2-digit" },
  /** 3 PM · 15時 (chart axes) */
  hour: { hour: "numeric" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DatePreset = keyof typeof DATE_PRESETS;

export type DateFormatOptions = {
  /** IANA zone, e.g. "UTC" or "Asia/Tokyo"; undefined = the runtime's own zone (browser only). */
  timeZone?: string;
  /** Append the zone's short name (e.g. "UTC") to shapes that show a time. */
  zoneName?: boolean;
};

/** i18next codes are valid BCP 47 tags already; anything else (or nothing) falls back to English. */
function locale(lang: string | undefined): string {
  if (!lang) return "en";
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? "en";
  } catch {
    return "en";
  }
}

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (!value) {
    value = make();
    if (cache.size > 200) cache.clear();
    cache.set(key, value);
  }
  return value;
}

function toDate(value: DateInput): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The clock of a date in UTC or in the runtime's own zone: Date's getters, which need no Intl data. */
type Clock = { year: number; month: number; day: number; hour: number; minute: number };
function clockOf(date: Date, utc: boolean): Clock {
  return utc
    ? { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: date.getUTCHours(), minute: date.getUTCMinutes() }
    : { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate(), hour: date.getHours(), minute: date.getMinutes() };
}

const EN_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const twoDigits = (n: number) => String(n).padStart(2, "0");
const h12 = (hour: number) => hour % 12 || 12;
const enMark = (c: Clock) => (c.hour < 12 ? "AM" : "PM");
const twMark = (c: Clock) => (c.hour < 12 ? "上午" : "下午");
const enTime = (c: Clock) => `${h12(c.hour)}:${twoDigits(c.minute)} ${enMark(c)}`;
const twTime = (c: Clock) => `${twMark(c)}${h12(c.hour)}:${twoDigits(c.minute)}`;
const h24Time = (c: Clock) => `${c.hour}:${twoDigits(c.minute)}`;
const hanDate = (c: Clock) => `${c.year}年${c.month}月${c.day}日`;
/** Japanese and Chinese share the date shapes (年月日, month/day); they differ in the clock and the hour's mark. */
const hanPresets = (time: (c: Clock) => string, hour: (c: Clock) => string): Record<DatePreset, (c: Clock) => string> => ({
  date: hanDate,
  dateTime: (c) => `${hanDate(c)} ${time(c)}`,
  shortDateTime: (c) => `${c.month}/${c.day} ${time(c)}`,
  time,
  hour,
});

/**
 * The presets as Intl (CLDR) writes them in the app's four languages, written here instead: a page's first Intl
 * date or number format loads ICU's data in one uninterruptible ~35 ms task (~0.14 s at Lighthouse's 4× slowdown),
 * on every page that shows a time. tests/unit/format.test.ts holds each equal to Intl's output.
 */
const WRITTEN: Record<string, Record<DatePreset, (c: Clock) => string>> = {
  en: {
    date: (c) => `${EN_MONTHS[c.month - 1]} ${c.day}, ${c.year}`,
    dateTime: (c) => `${EN_MONTHS[c.month - 1]} ${c.day}, ${c.year}, ${enTime(c)}`,
    shortDateTime: (c) => `${c.month}/${c.day}, ${enTime(c)}`,
    time: enTime,
    hour: (c) => `${h12(c.hour)} ${enMark(c)}`,
  },
  ja: hanPresets(h24Time, (c) => `${c.hour}時`),
  "zh-CN": hanPresets(h24Time, (c) => `${c.hour}时`),
  "zh-TW": hanPresets(twTime, (c) => `${twMark(c)}${h12(c.hour)}時`),
};

/**
 * A date/time in one of the presets; an unparseable value gives "". In UTC or the runtime's own zone, in the app's
 * languages, it is written without Intl (WRITTEN), the zone named as " UTC"; any other zone or language goes to Intl.
 */
export function formatDate(lang: string | undefined, value: DateInput, preset: DatePreset = "date", options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return "";
  const tag = locale(lang);
  const utc = options.timeZone === "UTC";
  const showsTime = "hour" in DATE_PRESETS[preset];
  const written = WRITTEN[tag]?.[preset];
  const clock = written && (utc || (options.timeZone === undefined && !options.zoneName)) ? clockOf(date, utc) : null;
  if (written && clock && clock.year >= 1000 && clock.year <= 9999) {
    const text = written(clock);
    return options.zoneName && showsTime ? `${text} UTC` : text;
  }
  const shape: Intl.DateTimeFormatOptions = { ...DATE_PRESETS[preset], timeZone: options.timeZone };
  if (options.zoneName && showsTime) shape.timeZoneName = "short";
  const format = cached(`d|${tag}|${preset}|${options.timeZone ?? ""}|${shape.timeZoneName ?? ""}`, () => new Intl.DateTimeFormat(tag, shape));
  return format.format(date);
}

export const formatDateTime = (lang: string | undefined, value: DateInput, options?: DateFormatOptions) => formatDate(lang, value, "dateTime", options);
export const formatTime = (lang: string | undefined, value: DateInput, options?: DateFormatOptions) => formatDate(lang, value, "time", options);

/** Languages whose whole numbers Intl writes as ASCII digits in groups of three with "," and a leading "-". */
const COMMA_GROUPED = new Set(["en", "ja", "zh-CN", "zh-TW"]);

/**
 * A whole number as Intl writes it in COMMA_GROUPED languages. Intl's first number or date format of a page loads
 * its locale data (~20 ms on a phone, ~0.1 s at Lighthouse's 4× slowdown); most main pages format only counts while
 * they hydrate, so they need no Intl at all (tests/unit/format.test.ts holds it equal to Intl's output).
 */
function groupDigits(value: number): string {
  const digits = String(Math.abs(value));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${out}` : out;
}

/** Grouped digits (1,234 · 1,234 · 1,234), or any Intl.NumberFormat shape (percent, unit, fraction digits). */
export function formatNumber(lang: string | undefined, value: number, options: Intl.NumberFormatOptions = {}): string {
  if (!Number.isFinite(value)) return "";
  // -0 is left to Intl ("-0").
  if (Number.isSafeInteger(value) && !Object.is(value, -0) && Object.keys(options).length === 0 && COMMA_GROUPED.has(lang ?? "en")) return groupDigits(value);
  const tag = locale(lang);
  const format = cached(`n|${tag}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(tag, options));
  return format.format(value);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/**
 * "3 hours ago", "in 2 days" (3 時間前, 2 天后…), in the largest whole unit. Depends on `now`, so render it
 * client-side or pass the same `now` on both sides.
 */
export function formatRelativeTime(lang: string | undefined, value: DateInput, now: DateInput = Date.now()): string {
  const date = toDate(value);
  const base = toDate(now);
  if (!date || !base) return "";
  const diff = date.getTime() - base.getTime();
  const [unit, ms] = UNITS.find(([, size]) => Math.abs(diff) >= size) ?? ["second", 1000];
  const tag = locale(lang);
  const format = cached(`r|${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: "auto" }));
  return format.format(Math.trunc(diff / ms), unit);
}

const AGE_UNITS: [Intl.NumberFormatOptions["unit"] & string, number][] = [
  ["year", 365 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
/** ICU's narrow Japanese units are Latin letters (3m, 3h); the short ones (3 分, 3 時間) are still one word. */
const AGE_DISPLAY: Record<string, "narrow" | "short"> = { ja: "short" };

/**
 * How long ago, as short as a phone row allows: "3m", "2h", "5d", "1w" (3 分, 2小时, 5 天…), "now" under a minute.
 * Depends on `now` like formatRelativeTime; a time in the future counts as now.
 */
export function formatAge(lang: string | undefined, value: DateInput, now: DateInput = Date.now()): string {
  const date = toDate(value);
  const base = toDate(now);
  if (!date || !base) return "";
  const diff = base.getTime() - date.getTime();
  const tag = locale(lang);
  const found = AGE_UNITS.find(([, size]) => diff >= size);
  if (!found) return cached(`rn|${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: "auto", style: "narrow" })).format(0, "second");
  const [unit, ms] = found;
  const unitDisplay = AGE_DISPLAY[tag.split("-")[0]!] ?? "narrow";
  return cached(`a|${tag}|${unit}`, () => new Intl.NumberFormat(tag, { style: "unit", unit, unitDisplay })).format(Math.floor(diff / ms));
}
