import { z } from "zod";
import { Language, MemberNo, pageSize, numeric } from "./common";
import type { LastBidding } from "./market";
import type { ProfileSummary } from "./profile-summary";

/** §3 multiGender: 1 male S, 2 female S, 3 male M, 4 female M, 5 male SW, 6 female SW. */
export const MultiGender = numeric().pipe(z.number().int().min(1).max(6));
/** §3 lookFor: 0 unset, 1 master, 2 mistress, 3 and 4 slave, 5 and 6 switch. */
export const LookFor = numeric().pipe(z.number().int().min(0).max(6));

const handle = z.string().trim().max(100);
/** A browser public key (base64 SPKI or a JWK), published for encrypted private messages (§7 Real time). */
export const PublicKey = z
  .string()
  .trim()
  .max(4096)
  .regex(/^[A-Za-z0-9+/=_\-{}":,.\s[\]]*$/, "Public key must be base64 or a JWK");

const Birthday = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Birthday must be YYYY-MM-DD")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, "Invalid date");

/** §5: input with a comma is a latitude,longitude pair, else a number. */
export const Coordinates = z.union([z.number(), z.string().trim().max(60)]);

/** PATCH /core/profiles/{memberId}: any of these. Unknown keys (kycStatus, blur, blocked…) are refused. */
export const ProfilePatch = z.strictObject({
  nickname: z.string().trim().max(40).optional(),
  introduction: z.string().max(2000).optional(),
  birthday: Birthday.nullable().optional(),
  multiGender: MultiGender.optional(),
  muted: z.boolean().optional(),
  isRainbow: z.boolean().optional(),
  closed: z.boolean().optional(),
  /** §4 safe mode: others' avatars and photos reach this member only as blurred renditions. */
  safeMode: z.boolean().optional(),
  /** Others see this member's approximate area (a cell, never the spot) on maps and nearby (README "Cells, not positions"). */
  showPosition: z.boolean().optional(),
  lookFor: LookFor.optional(),
  avator: z.string().max(300).optional(),
  qualify: z.boolean().optional(),
  safeword: z.string().trim().max(100).optional(),
  phone: z.string().trim().max(40).optional(),
  mobile: z.string().trim().max(40).optional(),
  defaultAddress: z.string().trim().max(300).optional(),
  language: Language.optional(),
  publicKey: PublicKey.nullable().optional(),
  skypeId: handle.optional(),
  wechatId: handle.optional(),
  telegramId: handle.optional(),
  twitterId: handle.optional(),
  instagramId: handle.optional(),
  dcardId: handle.optional(),
  websiteUrl: z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(300)]).optional(),
  coordinates: Coordinates.optional(),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
});
export type ProfilePatch = z.infer<typeof ProfilePatch>;

export const ListQuery = (fallback: number, max = 500) => z.object({ pageSize: pageSize(fallback, max) });
export const HotQuery = z.object({ pageSize: pageSize(48, 500), locale: z.string().max(10).optional() });
export const SearchQuery = z.object({ keyword: z.string().trim().min(1).max(40), pageSize: pageSize(30, 100) });
export const ZodiacQuery = z.object({ sign: z.string().max(20).optional(), pageSize: pageSize(20, 100) });
export const AllQuery = z.object({
  lookFor: z.enum(["1", "2", "3", "4", "skype", "twitter"]).optional(),
  pageSize: pageSize(500, 500),
});
export const CharacterUsersQuery = z.object({ page: numeric().pipe(z.number().int().min(1).max(1000)).default(1), pageSize: pageSize(20, 50) });
export const CharactersQuery = z.object({ memberNo: MemberNo.optional() });
export const AddCharacterBody = z.strictObject({ idCharacter: numeric().pipe(z.number().int().positive()) });

export const ZODIAC_SIGNS = [
  "capricorn", "aquarius", "pisces", "aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio", "sagittarius",
] as const;
export type ZodiacSign = (typeof ZODIAC_SIGNS)[number];

/** Banners and photos (§7). `image` is the url of one of the caller's own uploads. */
export const NewBannerBody = z.strictObject({
  image: z.string().min(1).max(300),
  pickable: z.boolean().default(true),
  width: numeric().pipe(z.number().int().min(1).max(10000)),
  height: numeric().pipe(z.number().int().min(1).max(10000)),
  url: z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(300)]).optional(),
});
export const BannerSizeBody = z.strictObject({
  width: numeric().pipe(z.number().int().min(1).max(10000)),
  height: numeric().pipe(z.number().int().min(1).max(10000)),
});
export const BannerRatingBody = z.strictObject({
  idBanner: numeric().pipe(z.number().int().positive()),
  rating: numeric().pipe(z.number().int().min(1).max(5)),
});

/**
 * §3 Profile as another member or a visitor gets it (profiles.service `publicProfile` is typed by it): the summary and
 * the public fields, never phone, mobile, address, email hash or safeword.
 */
/** One member who checked a character, and a page of them (§7 sns characters users). */
export type CharacterUser = { idUserCharacter: number; simpleCode: string; nickname: string; avator: string; profile: ProfileSummary };
export type CharacterUsersPage = { page: number; pageSize: number; hasMore: boolean; userCharacters: CharacterUser[] };

export type PublicProfile = ProfileSummary & {
  projectCode: string;
  introduction: string;
  unqualifiedCount: number;
  /** Always null here (SECURITY.md "What a visitor sees": the sign, never the date); the owner gets it. */
  birthday: string | null;
  zodiacSign: string | null;
  skypeId: string;
  wechatId: string;
  telegramId: string;
  twitterId: string;
  instagramId: string;
  dcardId: string;
  websiteUrl: string;
  publicKey: string | null;
  /** The member's cell for other members, nulls for visitors (README "Cells, not positions"). */
  geohash: string | null;
  latitude: number | null;
  longitude: number | null;
  biddingCount: number;
  /** For members only (SECURITY.md "What a visitor sees"). */
  pageViews: number | null;
};

/** Every §3 field, for the owner (GET and PATCH /core/profiles/{own memberId}; profiles.service `ownProfile` is typed by it). */
export type OwnProfile = PublicProfile & {
  memberId: string;
  /** The owner's own exact position, and whether others see its cell. */
  showPosition: boolean;
  muted: boolean;
  safeMode: boolean;
  genderLocked: boolean;
  safeword: string;
  phone: string;
  mobile: string;
  defaultAddress: string;
  emailHash: string;
  language: string | null;
  /** Filled by GET /core/profiles/{own memberId}; other paths leave it null. */
  lastBidding: LastBidding | null;
  dateAdd: string | null;
  dateUdp: string | null;
};

/** §3 Banner or photo. */
export type Banner = {
  idBanner: number;
  image: string;
  pickable: boolean;
  width: number;
  height: number;
  memberNo: string;
  url: string;
  blur: boolean;
  /** Blurred only by the viewer's stranger-media setting (not §9 `blur`): the page offers a one-tap reveal. */
  strangerBlur?: true;
  rating: number;
  ratingCount: number;
  threadCount: number;
  dateAdd: string;
};

/** POST /core/banners/{id}/reveal (§9 the 10-tap reveal): the photo's original for this member. */
export type BannerRevealed = { idBanner: number; image: string };

/** A photo with its owner's card, each as the viewer may see it (home masonry, the profiles feed, photo review). */
export type BannerWithOwner = Banner & { profile: ProfileSummary };

/** The profiles feed (§2 /profiles): hot members, today's birthdays (members only) and the newest photos. */
export type ProfilesFeed = { hot: ProfileSummary[]; birthdays: ProfileSummary[]; banners: BannerWithOwner[] };

/** §3 Character with the caller's or target's checked state; `hit` = the viewer shares it. */
export type Character = { idCharacter: number; title: string; level: number; checked: boolean; hit: boolean };

/** §3 Action stats: one entry per UTC hour. */
export type ActionStat = { actionHour: number; actionCount: number };

/** §9 Upload answer. */
export type UploadInfo = {
  key: string;
  url: string;
  width: number;
  height: number;
  graphic: boolean;
  qualify?: boolean;
  unqualifiedCount?: number;
  /** With `encode=true`: the hex seed the stored file was scrambled with (§4 encoded images; send it as the payload's key). */
  scrambleKey?: string;
};

/** `private`: an image for a private message (stored as kind `dm`, served only by /private-media to sender and recipient). */
/** `logo`: a creator profile link's logo (README Decisions "DNA pairing and creator profiles"), stored small. */
/** `encrypted`: a browser-encrypted image for a private message (README Decisions "Everything private is encrypted"). */
export const UploadKind = z.enum(["avatar", "photo", "private", "logo", "encrypted"]);
