import { z } from "zod";
import type { ProfileSummary } from "./profile-summary";

/** §5: feedback must be non-empty after trimming. */
export const FeedbackBody = z.object({ message: z.string().trim().min(1, "Feedback must not be empty").max(2000) });
export type FeedbackBody = z.infer<typeof FeedbackBody>;

/** §9 constants the dashboard is built on. */
export const HOME_LIMITS = {
  strip: 30,
  hotProfiles: 48,
  wall: 5,
  related: 20,
  suggested: 20,
  notes: 12,
  visitors: 30,
  photoGrid: 10,
  photoGridMax: 60,
  reviewSession: 10,
  /** §9: hot discussion intro must exceed 20 characters. */
  noteIntroMin: 21,
} as const;

export type Reminder = { idReminder: number; title: string; description: string; remindAt: string };
export type Visitor = { simpleCode: string; nickname: string; dateUpd: string; profile: ProfileSummary };
export type NoteCard = { profile: ProfileSummary; introduction: string };
export type HomePhoto = {
  idBanner: number;
  image: string;
  width: number;
  height: number;
  memberNo: string;
  url: string | null;
  blur: boolean;
  rating: number | null;
  threadCount: number;
  profile: ProfileSummary | null;
};
/** Everything the home dashboard (§2) shows, read in one batched round trip. */
export type HomeDashboard = {
  me: ProfileSummary & { introduction: string; pageViews: number };
  /** §2 profile-completeness checklist. */
  checklist: { nickname: boolean; introduction: boolean; avatarUploaded: boolean; avatarQualified: boolean };
  coins: { mcoin: number; scoin: number };
  guestbook: { count: number; unread: number } | null;
  flame: { memberNo: string; profile: ProfileSummary } | null;
  /** §9: only reminders of today's UTC date. */
  reminders: Reminder[];
  today: string;
  suggested: ProfileSummary[];
  related: ProfileSummary[];
  latestSpeech: ProfileSummary[];
  latestOnline: ProfileSummary[];
  newbies: { total: number; profiles: ProfileSummary[] };
  mostVisits: ProfileSummary[];
  visitors: Visitor[] | null;
  hotProfiles: ProfileSummary[];
  notes: NoteCard[];
  photos: HomePhoto[] | null;
  /** Photo review prompt: shown while unrated photos wait and today's session is not done. */
  photoReview: { available: number; ratedToday: number; done: boolean } | null;
  unreadNotifications: number;
};

/** Uniform index in [0, n) from a source of random 32-bit words, by rejection sampling (no modulo bias). */
export function fairIndex(n: number, nextWord: () => number): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError("n must be a positive integer");
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const word = nextWord() >>> 0;
    if (word < limit) return word % n;
  }
}

/** A fair roulette pick with the platform's CSPRNG (§9 roulette picks at random). */
export function fairPick(n: number): number {
  const buffer = new Uint32Array(1);
  return fairIndex(n, () => crypto.getRandomValues(buffer)[0]!);
}
