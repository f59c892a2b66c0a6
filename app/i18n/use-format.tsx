import { useMemo, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../lib/hydrated";
import { formatAge, formatDate, formatNumber, formatRelativeTime, type DateInput, type DatePreset } from "./format";

/**
 * Formatters bound to the active language and the hydration-safe zone (see ./format): UTC while rendering on the
 * server and while hydrating (so both sides print the same text), then the member's own zone. Pages rendered on the
 * client from the start never show UTC.
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const hydrated = useHydrated();
  return useMemo(() => {
    // The UTC pass says so ("15:05 UTC"), so nobody reads a server time as their own. After it, the browser's own
    // zone (no `timeZone`): format.ts writes it from Date's getters, without loading Intl's data.
    const zone = (): { timeZone: string | undefined; zoneName: boolean } => (hydrated ? { timeZone: undefined, zoneName: false } : { timeZone: "UTC", zoneName: true });
    return {
      lang,
      date: (value: DateInput, preset: DatePreset = "date") => formatDate(lang, value, preset, zone()),
      dateTime: (value: DateInput) => formatDate(lang, value, "dateTime", zone()),
      number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(lang, value, options),
      relative: (value: DateInput, now?: DateInput) => formatRelativeTime(lang, value, now),
      age: (value: DateInput, now?: DateInput) => formatAge(lang, value, now),
    };
  }, [lang, hydrated]);
}

/**
 * A machine-readable <time> showing `value` in the member's language and zone. The server and hydration pass
 * print UTC; `suppressHydrationWarning` covers an ICU difference between workerd and the browser.
 */
export function LocalTime({ value, preset = "dateTime", className }: { value: string; preset?: DatePreset; className?: string }) {
  const format = useFormat();
  return (
    <time dateTime={value} className={className} suppressHydrationWarning>
      {format.date(value, preset)}
    </time>
  );
}

/**
 * One clock for every <TimeAgo> on the page, ticking each minute while any is mounted. Subscribing moves it only
 * when it is a minute or more old (a page opened long after the last tick), never at hydration, when the module has
 * just loaded: a clock moved there re-rendered every <TimeAgo> synchronously in hydration's commit (README Decisions
 * "Browser-only values after hydration").
 */
let minuteNow = Date.now();
const minuteListeners = new Set<() => void>();
let minuteTimer: ReturnType<typeof setInterval> | undefined;
function subscribeMinute(onChange: () => void) {
  minuteListeners.add(onChange);
  if (Date.now() - minuteNow >= 60_000) minuteNow = Date.now();
  minuteTimer ??= setInterval(() => {
    minuteNow = Date.now();
    for (const listener of minuteListeners) listener();
  }, 60_000);
  return () => {
    minuteListeners.delete(onChange);
    if (minuteListeners.size === 0 && minuteTimer) {
      clearInterval(minuteTimer);
      minuteTimer = undefined;
    }
  };
}

/**
 * How long ago `value` was, short enough for a phone row ("3m", "2h", "5d"); the full date and time in the title.
 * The server and the hydration pass may be a minute apart: `suppressHydrationWarning` covers that text.
 */
export function TimeAgo({ value, className }: { value: string; className?: string }) {
  const format = useFormat();
  // The server reads its own clock (an isolate's module may be hours old); the browser the page's minute clock.
  const now = useSyncExternalStore(subscribeMinute, () => minuteNow, () => (typeof window === "undefined" ? Date.now() : minuteNow));
  return (
    <time dateTime={value} className={className} title={format.dateTime(value)} suppressHydrationWarning>
      {format.age(value, now)}
    </time>
  );
}
