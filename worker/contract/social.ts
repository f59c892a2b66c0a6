import { z } from "zod";
import { MemberNo, pageSize, numeric } from "./common";
import type { NotificationType } from "./notifications";
import type { ProfileSummary } from "./profile-summary";
import type { CompassPoint } from "./social.constants";
export * from "./social.constants";

/** Viewer relationship carried by every profile the API returns to a member (house style). */
export type Relationship = {
  following: boolean;
  followedBy: boolean;
  favourite: boolean;
  friendStatus: FriendStatus;
  blocking: { idBlock: number; expiresAt: string | null } | null;
  blockedBy: boolean;
  muted: { expiresAt: string | null } | null;
  /** I asked to follow a member who approves followers and they have not answered (README Decisions "Approve followers"). */
  followRequested: boolean;
};

/** none → requested (I asked) / incoming (they asked) → friends. Rejecting returns both to none. */
export type FriendStatus = "none" | "requested" | "incoming" | "friends";

/** Timed blocks and mutes: they lift themselves when the time passes. */
export const SafetyDuration = z.enum(["24h", "7d", "30d", "forever"]);
export type SafetyDuration = z.infer<typeof SafetyDuration>;
export const SAFETY_DURATION_MS: Record<SafetyDuration, number | null> = {
  "24h": 24 * 3_600_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
  forever: null,
};

export const TargetBody = z.object({ targetMemberNo: MemberNo });
export const MuteBody = z.object({ targetMemberNo: MemberNo, duration: SafetyDuration.default("forever") });
/** A block may also block new accounts this person makes (README Decisions "Block evasion and per-item reports"). */
export const BlockBody = MuteBody.extend({ alsoNewAccounts: z.boolean().default(false) });
/**
 * §7 report {targetMemberNo, reason}; optionally one item of that member's (README Decisions "Block evasion and
 * per-item reports"): `kind` "chat" (a chat message or note, by idChatroomMessage) or "guestbook" (by idGuestbook),
 * both or neither.
 */
export const ReportKind = z.enum(["chat", "guestbook"]);
export type ReportKind = z.infer<typeof ReportKind>;
export const ReportBody = z
  .object({
    targetMemberNo: MemberNo,
    reason: z.string().trim().max(500).default(""),
    kind: ReportKind.optional(),
    itemId: z.number().int().positive().optional(),
  })
  .refine((body) => (body.kind === undefined) === (body.itemId === undefined), { message: "kind and itemId go together", path: ["itemId"] });
export const MemberNoParam = z.object({ memberNo: MemberNo });

/** §5: the guestbook message is text; trimmed, non-empty. */
export const GuestbookMessage = z.string().trim().min(1, "Message is empty").max(2000);
export const GuestbookBody = z.object({ message: GuestbookMessage });
/** §7 leave message (code, text): `code` is the recipient's member code. */
export const LeaveMessageBody = z.object({ code: MemberNo, text: GuestbookMessage });

export const PageQuery = z.object({ pageSize: pageSize(30, 100), before: numeric().pipe(z.number().int().positive()).optional() });
export const NearbyQuery = z.object({ pageSize: pageSize(30, 100) });

/** §5 coordinates: latitude −90..90, longitude −180..180; geohash is computed (and, if sent, checked) server-side. */
export const GeolocationBody = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  geohash: z.string().regex(/^[0-9b-hjkmnp-z]{1,12}$/, "Invalid geohash").optional(),
});

export const SettingsBody = z.object({ emailAlerts: z.boolean() });
export const ReadNotificationsBody = z.object({ ids: z.array(z.number().int().positive()).max(500).optional() });

/** What the follow heart shows: `requested` while a member who approves followers has not answered (README Decisions "Approve followers"). */
export type FollowStatus = "none" | "requested" | "following";
/** A pending follow request, as its target lists it. */
export type FollowRequestItem = { idFollowRequest: number; profile: ProfileSummary; dateAdd: string };
/** The owner's "approve followers" setting (migration 0028). */
export const FollowApprovalBody = z.object({ approveFollowers: z.boolean() }).strict();
export type FollowApproval = z.infer<typeof FollowApprovalBody>;
/**
 * The counts are null, and `connectionsHidden: true` is added, when the member hides their connections from this
 * viewer (README Decisions "Who sees my connections"); `following`/`followedBy` are the viewer's own edges and stay.
 */
/** §7 follow info; counts are null (and `connectionsHidden` set) when the member hides their connections from the viewer. */
export type FollowInfo = {
  memberNo: string;
  following: boolean;
  followedBy: boolean;
  followStatus: FollowStatus;
  followers: number | null;
  followingCount: number | null;
  connectionsHidden?: true;
};
export type ListItem = { profile: ProfileSummary; dateAdd: string };
export type Page<T> = { items: T[]; next: number | null };
export type BlockItem = { idBlock: number; profile: ProfileSummary; dateAdd: string; expiresAt: string | null; alsoNewAccounts: boolean };
export type MuteItem = { idMute: number; profile: ProfileSummary; dateAdd: string; expiresAt: string | null };
export type BlockCount = { memberNo: string; count: number; indicators: number };
export type GuestbookEntry = {
  idGuestbook: number;
  message: string;
  /** §3: entry time, UTC ISO. */
  timelog: string;
  /** The author. */
  profile: ProfileSummary;
  /** Whose guestbook it is. */
  ownerMemberNo: string;
  read: boolean;
  /** The text contains one of the viewer's muted words and was withheld until asked (README Decisions "Muted words"). */
  mutedWord?: boolean;
};
export type GuestbookCounts = { total: number; unread: number };
/** The member's own exact position (only ever answered to that member) and whether others see its cell. */
export type GeolocationInfo = { latitude: number | null; longitude: number | null; geohash: string | null; showPosition: boolean };
/**
 * §3 Nearby item. `latitude`/`longitude` are the centre of the member's cell (about 1 km, README "Cells, not
 * positions"), never their position; `distanceKm` is whole kilometres between the two cells' centres (at least 1);
 * `bearing` is one of eight compass points, null inside the same cell.
 */
export type NearbyItem = { profile: ProfileSummary; latitude: number; longitude: number; rank: number; distanceKm: number; bearing: CompassPoint | null };
/** §7 nearby: the members around, and where the reader stands. */
export type NearbyAnswer = { items: NearbyItem[]; origin: GeolocationInfo };
export type FlameInfo = { memberNo: string | null; profile: ProfileSummary | null; since: string | null; mine: boolean };
/** §2/§6 the basement: the tenant's other verified members and the flame holder. */
export type BasementInfo = { projectCode: string; members: ProfileSummary[]; flame: FlameInfo };
export type DoorBell = { ring: boolean; guestbookUnread: number; notificationsUnread: number; checkedAt: string; since: string | null };
/** §3 Action stats (activity-by-hour chart) plus the member's recent public actions. */
export type ActionKind = "follow" | "guestbook" | "flame";
export type MemberActions = { stats: { actionHour: number; actionCount: number }[]; recent: { type: ActionKind; dateAdd: string }[] };
export type SocialSettings = { emailAlerts: boolean };
/** §7 friends: the answer to a friend request, accept, reject or removal. */
export type FriendAnswer = { memberNo: string; friendStatus: FriendStatus };
/** §7 blocks and mutes: what a new block or mute answers (`count`/`indicators` are the §9 block counter). */
export type BlockCreated = { idBlock: number; memberNo: string; expiresAt: string | null; alsoNewAccounts: boolean; count: number; indicators: number };
export type MuteCreated = { idMute: number; memberNo: string; expiresAt: string | null };
/** One open verification request in the flame holder's list (README Decisions "Verification"). */
export type FlameRequest = { memberNo: string; profile: ProfileSummary; requestedAt: string | null };
/** GET /core/flame/{project}/requests: the holder's open requests (flame.service `openRequests`). */
export type FlameRequests = { requests: FlameRequest[] };
/** POST /core/flame/{project}/approve: the target and its verification level after (§6; an AI-room member keeps 9). */
export type FlameApproved = { memberNo: string; kycStatus: number };
/** POST /core/notifications/read: how many this call marked, and the unread count left (inbox.service). */
export type NotificationsRead = { marked: number; unread: number };
/** A member's own verification state (README Decisions "Verification"). */
export type Verification = { kycStatus: number; verified: boolean; requestedAt: string | null };
/**
 * What a notification opens, decided by the server from what the viewer may open now (README "Notifications open
 * what they are about"): only the ids the page needs; null when there is nothing to open.
 */
export type NotificationTarget =
  | { kind: "profile"; memberNo: string }
  | { kind: "conversation"; chatroomId: string }
  | { kind: "note"; idChatroomMessage: number }
  | { kind: "mission"; idMission: number }
  | { kind: "review"; idMission: number }
  | { kind: "requests" | "guestbook" | "aiRoom" | "home" | "market" | "lottery" };
/** A stored notification with its actor's profile; rendered per type in the viewer's language. */
export type NotificationView = {
  idNotification: number;
  type: NotificationType;
  actorMemberNo: string | null;
  actor: ProfileSummary | null;
  params: Record<string, unknown>;
  target: NotificationTarget | null;
  dateAdd: string;
  read: boolean;
};

/** A refusal a post would get now: the §8 envelope's code and text. */
export type PostingRefusal = { returnCode: string; returnMessage: string };
/** `GET /private/core/posting-status`: what the member's own composers show before sending (README "Posting rules"). */
export type PostingStatus = {
  post: PostingRefusal | null;
  send: PostingRefusal | null;
  nicknameMissing: boolean;
  avatar: "missing" | "unqualified" | "ok";
  suspended: boolean;
  /** Null for a pause until lifted (`suspendedIndefinitely`). */
  suspendedUntil: string | null;
  suspendedIndefinitely: boolean;
};
