import type { ZodiacSign } from "../../contract/profiles";

/** Western zodiac from a YYYY-MM-DD birthday (Dna: zodiacSign). */
export function zodiacFromBirthday(birthday: string | null | undefined): ZodiacSign | null {
  const match = birthday?.match(/^\d{4}-(\d{2})-(\d{2})$/);
  if (!match) return null;
  const md = Number(match[1]) * 100 + Number(match[2]);
  // Start day (MMDD) of each sign in calendar order.
  const starts: [number, ZodiacSign][] = [
    [120, "aquarius"], [219, "pisces"], [321, "aries"], [420, "taurus"], [521, "gemini"], [621, "cancer"],
    [723, "leo"], [823, "virgo"], [923, "libra"], [1023, "scorpio"], [1122, "sagittarius"], [1222, "capricorn"],
  ];
  let sign: ZodiacSign = "capricorn";
  for (const [start, name] of starts) if (md >= start) sign = name;
  return sign;
}

/** Whole years between a YYYY-MM-DD birthday and `at`. */
export function ageOn(birthday: string, at = new Date()): number {
  const [y, m, d] = birthday.split("-").map(Number) as [number, number, number];
  let age = at.getUTCFullYear() - y;
  if (at.getUTCMonth() + 1 < m || (at.getUTCMonth() + 1 === m && at.getUTCDate() < d)) age--;
  return age;
}

export const EARTH_RADIUS_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** §5: map markers only for latitude -90..90 and longitude -180..180. */
export const validCoordinates = (lat: number | null | undefined, lng: number | null | undefined): boolean =>
  typeof lat === "number" && typeof lng === "number" && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** Great-circle distance in km (§9 Earth radius 6371 km). */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial compass bearing from point 1 to point 2, degrees 0..360 (0 = north). */
export function bearingDegrees(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const y = Math.sin(rad(lng2 - lng1)) * Math.cos(rad(lat2));
  const x = Math.cos(rad(lat1)) * Math.sin(rad(lat2)) - Math.sin(rad(lat1)) * Math.cos(rad(lat2)) * Math.cos(rad(lng2 - lng1));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/**
 * §9: match rate is the square root of the percentage times 10. The percentage is the share of the two
 * members' combined preferences that both hold, so identical sets give 100 and disjoint sets 0.
 */
export function matchRate(mine: Iterable<number>, theirs: Iterable<number>): number {
  const a = new Set(mine);
  const b = new Set(theirs);
  const union = new Set([...a, ...b]);
  if (union.size === 0) return 0;
  let shared = 0;
  for (const id of a) if (b.has(id)) shared++;
  const percentage = (shared / union.size) * 100;
  return Math.round(Math.sqrt(percentage) * 10);
}

/**
 * §5: "lat,lng" is a pair; a single number is a latitude on its own. Returns null when out of range.
 */
export function parseCoordinates(input: string | number): { latitude: number; longitude?: number } | null {
  if (typeof input === "number") return Math.abs(input) <= 90 ? { latitude: input } : null;
  const text = input.trim();
  if (text.includes(",")) {
    const [latText, lngText, ...rest] = text.split(",").map((s) => s.trim());
    if (rest.length || !latText || !lngText) return null;
    const latitude = Number(latText);
    const longitude = Number(lngText);
    return validCoordinates(latitude, longitude) ? { latitude, longitude } : null;
  }
  const latitude = Number(text);
  return text !== "" && Number.isFinite(latitude) && Math.abs(latitude) <= 90 ? { latitude } : null;
}
