import { z } from "zod";
import type { ProfileSummary } from "./profile-summary";
import type { BannerWithOwner } from "./profiles";
export * from "./home.constants";

/** §5: feedback must be non-empty after trimming. */
export const FeedbackBody = z.object({ message: z.string().trim().min(1, "Feedback must not be empty").max(2000) });
export type FeedbackBody = z.infer<typeof FeedbackBody>;

/** §7 photo review: a photo waiting for the reader's rating, as the viewer may see it, with its owner's card. */
export type ReviewPhoto = BannerWithOwner;
export type Reminder = { idReminder: number; title: string; description: string; remindAt: string };
export type Visitor = { simpleCode: string; nickname: string; dateUpd: string; profile: ProfileSummary };
/** §5 footprints of a profile (its page, GET /sns/visitors): a visitor and how often they came. */
export type VisitorEntry = Visitor & { visitCount: number };
export type NoteCard = { profile: ProfileSummary; introduction: string };
export type HomePhoto = {
  idBanner: number;
  image: string;
  width: number;
  height: number;
  memberNo: string;
  url: string | null;
  blur: boolean;
  /** Blurred only by the viewer's stranger-media setting (not §9 `blur`): the page offers a one-tap reveal. */
  strangerBlur?: true;
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
