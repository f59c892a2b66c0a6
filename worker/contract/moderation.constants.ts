/** Zod-free part of ./moderation.ts (which re-exports it): the browser imports this file. */

/** A reporter or marker counts only with an account at least this old (README Decisions "Moderation"). */
export const ESTABLISHED_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Weighted open reports that pause a member's posting automatically, and for how long (it lifts by itself). */
export const AUTO_PAUSE_WEIGHT = 3;
export const AUTO_PAUSE_MS = 24 * 60 * 60 * 1000;
/** At most one automatic pause per member in this window; the rest waits for an operator. */
export const AUTO_PAUSE_COOLDOWN_MS = 7 * 24 * 60 * 60 * 1000;
/** §4 unqualified marks: weighted marks of established members that take an avatar down. */
export const TAKEDOWN_WEIGHT = 5;
/** Durations an operator can choose for a suspension, in hours; null = until lifted. */
export const SUSPENSION_HOURS = [24, 72, 168, 720] as const;
/** An indefinite suspension is stored as this end (9999-12-31); the API answers `until: null`. */
export const SUSPENDED_INDEFINITELY = 253402300799000;

export type ModerationOutcome = "suspended" | "avatarRemoved" | "lifted" | "appealGranted" | "appealRefused";
