import { PUBLIC_CHATROOM_ID } from "../../../worker/contract/chat.constants";

/**
 * One place a navigation link leads to: a path under /{projectCode}, a translation key and an icon: a text glyph, or
 * the name of an SVG icon (components/icon.tsx) where the picture would be a colour emoji.
 */
export type NavItem = { path: string; label: string; icon: string; dot?: "social" | "message" };
export type NavGroup = { label: string; items: NavItem[] };

/** §2 bottom navigation of a member: market, social (the chat list), home, message (guestbook and notices), profile. */
export const MEMBER_TABS: NavItem[] = [
  { path: "market", label: "common:nav.market", icon: "⚖" },
  { path: "notification", label: "shell:nav.chats", icon: "chat", dot: "social" },
  { path: "home", label: "common:nav.home", icon: "⌂" },
  { path: "message", label: "shell:nav.inbox", icon: "✉", dot: "message" },
  { path: "profile", label: "common:nav.profile", icon: "☺" },
];

/**
 * Every other §2 screen a member opens without an id from a page, grouped: the phone's More sheet and the desktop
 * side navigation list them, so each is two taps from anywhere. Screens of one item (a mission, a note, an album,
 * another member's chatroom) open from the lists that show the item; AI room and basement from home (by kycStatus).
 */
export function memberGroups(personalRoomId: string | null): NavGroup[] {
  return [
    {
      label: "shell:nav.groups.people",
      items: [
        { path: "profiles", label: "shell:nav.feed", icon: "✦" },
        { path: "all-profiles", label: "shell:nav.allProfiles", icon: "☷" },
        { path: "photo-grid", label: "shell:nav.photoGrid", icon: "▦" },
        { path: "avatar-wall", label: "shell:nav.avatarWall", icon: "◍" },
      ],
    },
    {
      label: "shell:nav.groups.talk",
      items: [
        { path: `public-chat/${PUBLIC_CHATROOM_ID}`, label: "shell:nav.publicChat", icon: "speech" },
        // §2 personal chatroom (personal-room.ts).
        ...(personalRoomId ? [{ path: `chatroom/${personalRoomId}`, label: "shell:nav.personalRoom", icon: "cup" }] : []),
        { path: "guestbook", label: "shell:nav.guestbook", icon: "✎" },
      ],
    },
    {
      label: "shell:nav.groups.tasks",
      items: [
        // §2 task/{tab}: 0 all tasks, 1 my tasks, 2 review.
        { path: "task/0", label: "shell:nav.tasksAll", icon: "☑" },
        { path: "task/1", label: "shell:nav.tasksMine", icon: "☐" },
        { path: "task/2", label: "shell:nav.tasksReview", icon: "✓" },
        { path: "albums", label: "shell:nav.albums", icon: "▣" },
      ],
    },
    {
      label: "shell:nav.groups.you",
      items: [
        { path: "qr", label: "shell:nav.qr", icon: "▩" },
        { path: "settings", label: "shell:nav.settings", icon: "⚙" },
      ],
    },
  ];
}

/** A visitor's navigation: only the §6 public pages (private ones would only send them to login). */
export const VISITOR_TABS: NavItem[] = [
  { path: "profiles", label: "shell:nav.feed", icon: "✦" },
  { path: "all-profiles", label: "shell:nav.allProfiles", icon: "☷" },
  { path: "photo-grid", label: "shell:nav.photoGrid", icon: "▦" },
  { path: "avatar-wall", label: "shell:nav.avatarWall", icon: "◍" },
];
