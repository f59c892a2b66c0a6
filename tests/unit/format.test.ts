import { describe, expect, it } from "vitest";
import { createI18n } from "../../app/i18n/i18n";
import { DATE_PRESETS, formatDate, formatDateTime, formatNumber, formatRelativeTime, formatTime } from "../../app/i18n/format";

// Dates, times and numbers follow the chosen language (app/i18n/format.ts).
const AT = "2026-11-17T15:05:00Z";
const UTC = { timeZone: "UTC" };
/** ICU puts narrow and no-break spaces in some shapes; compare them as plain spaces. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");

describe("format", () => {
  it("dates per language", () => {
    expect(formatDate("en", AT, "date", UTC)).toBe("Nov 17, 2026");
    expect(formatDate("ja", AT, "date", UTC)).toBe("2026年11月17日");
    expect(formatDate("zh-CN", AT, "date", UTC)).toBe("2026年11月17日");
    expect(formatDate("zh-TW", AT, "date", UTC)).toBe("2026年11月17日");
  });

  it("date and time per language, with the zone named when asked", () => {
    expect(plain(formatDateTime("en", AT, { ...UTC, zoneName: true }))).toBe("Nov 17, 2026, 3:05 PM UTC");
    expect(plain(formatDateTime("ja", AT, { ...UTC, zoneName: true }))).toBe("2026年11月17日 15:05 UTC");
    expect(plain(formatDateTime("zh-CN", AT, UTC))).toBe("2026年11月17日 15:05");
    expect(plain(formatDateTime("zh-TW", AT, UTC))).toBe("2026年11月17日 下午3:05");
  });

  it("times per language and in the requested zone", () => {
    expect(plain(formatTime("en", AT, UTC))).toBe("3:05 PM");
    expect(formatTime("ja", AT, UTC)).toBe("15:05");
    expect(formatTime("zh-CN", AT, UTC)).toBe("15:05");
    expect(formatTime("zh-TW", AT, UTC)).toBe("下午3:05");
    // 15:05 UTC is 00:05 the next day in Tokyo.
    expect(formatDate("ja", AT, "shortDateTime", { timeZone: "Asia/Tokyo" })).toBe("11/18 0:05");
    expect(plain(formatDate("en", AT, "shortDateTime", { timeZone: "Asia/Tokyo" }))).toBe("11/18, 12:05 AM");
    expect(formatDate("ja", AT, "hour", UTC)).toBe("15時");
    expect(formatDate("zh-CN", AT, "hour", UTC)).toBe("15时");
  });

  it("writes every date preset without Intl exactly as Intl does, in UTC and in the runtime's own zone", () => {
    // Midnight, noon and the hours beside them, then dates from 1970 to 2100 from a fixed sequence.
    const dates = ["2026-01-05T00:07:00Z", "2026-11-27T11:59:00Z", "2026-11-27T12:00:00Z", "2026-11-27T23:05:00Z", "2026-03-09T09:00:00Z"].map((d) => new Date(d));
    let seed = 11;
    for (let i = 0; i < 300; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      dates.push(new Date(Math.floor((seed / 2_147_483_647) * 4_102_444_800_000)));
    }
    const presets = ["date", "dateTime", "shortDateTime", "time", "hour"] as const;
    for (const lang of ["en", "ja", "zh-CN", "zh-TW"]) {
      for (const preset of presets) {
        const inUtc = new Intl.DateTimeFormat(lang, { ...DATE_PRESETS[preset], timeZone: "UTC" });
        const inOwnZone = new Intl.DateTimeFormat(lang, DATE_PRESETS[preset]);
        for (const date of dates) {
          expect(formatDate(lang, date, preset, UTC), `${lang} ${preset} ${date.toISOString()}`).toBe(plain(inUtc.format(date)));
          expect(formatDate(lang, date, preset), `${lang} ${preset} own zone ${date.toISOString()}`).toBe(plain(inOwnZone.format(date)));
        }
      }
    }
    // The server's and the hydration pass's zone is named after the time, in every language.
    expect(formatDate("zh-CN", AT, "time", { ...UTC, zoneName: true })).toBe("15:05 UTC");
    expect(formatDate("zh-TW", AT, "date", { ...UTC, zoneName: true })).toBe("2026年11月17日");
  });

  it("numbers per language", () => {
    for (const lang of ["en", "ja", "zh-CN", "zh-TW"]) expect(formatNumber(lang, 1234567.5)).toBe("1,234,567.5");
    expect(formatNumber("zh-CN", 12.5, { style: "unit", unit: "kilometer", unitDisplay: "short" })).toBe("12.5公里");
    expect(formatNumber("en", Number.NaN)).toBe("");
  });

  it("writes whole numbers without Intl exactly as Intl does", () => {
    const values = [0, -0, 1, -1, 7, 12, 999, 1000, -1000, 4096, 12_345, -99_999, 100_000, 1_234_567, 123_456_789, 2 ** 31, -(2 ** 40), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    // Every length from 1 to 16 digits, both signs, from a fixed sequence (the same numbers every run).
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      values.push(Math.round((seed / 2_147_483_647 - 0.5) * 10 ** (1 + (i % 15))));
    }
    for (const lang of ["en", "ja", "zh-CN", "zh-TW"]) {
      const intl = new Intl.NumberFormat(lang);
      for (const value of values) expect(formatNumber(lang, value), `${lang} ${value}`).toBe(intl.format(value));
    }
  });

  it("relative times per language", () => {
    const earlier = "2026-11-17T12:05:00Z";
    expect(formatRelativeTime("en", earlier, AT)).toBe("3 hours ago");
    expect(formatRelativeTime("ja", earlier, AT)).toBe("3 時間前");
    expect(formatRelativeTime("zh-CN", earlier, AT)).toBe("3小时前");
    expect(formatRelativeTime("zh-TW", earlier, AT)).toBe("3 小時前");
    expect(formatRelativeTime("en", "2026-11-16T15:05:00Z", AT)).toBe("yesterday");
    expect(formatRelativeTime("zh-TW", "2026-11-19T15:05:00Z", AT)).toBe("後天");
  });

  it("falls back to English for an unknown language and to nothing for a bad date", () => {
    expect(formatDate(undefined, AT, "date", UTC)).toBe("Nov 17, 2026");
    expect(formatDate("not a tag!", AT, "date", UTC)).toBe("Nov 17, 2026");
    expect(formatDate("en", "not a date", "date", UTC)).toBe("");
  });

  it("`{{count, number}}` in a translation goes through the helper for the active language", () => {
    const i18n = createI18n("ja", { ja: { common: { coins: "{{count, number}} Mコイン" } } });
    expect(i18n.t("coins", { count: 12345 })).toBe("12,345 Mコイン");
    const en = createI18n("en", { en: { common: { km: "{{km, number(maximumFractionDigits: 1)}} km", views: "{{count, number}} views" } } });
    expect(en.t("km", { km: 1234.56 })).toBe("1,234.6 km");
    expect(en.t("views", { count: 1000, name: "ignored" })).toBe("1,000 views");
  });
});
