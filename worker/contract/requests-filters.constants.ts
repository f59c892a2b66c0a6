/**
 * Filters for the requests tray and notifications, as pages see them (no zod here: pages import this; the schema is
 * in requests-filters.ts). README Decisions "Filters for requests and notifications".
 */
export type RequestsFilters = {
  /** Accounts younger than this many days; 0 = off. */
  newerThanDays: number;
  noAvatar: boolean;
  notFollowed: boolean;
  /** Applies to the requests tray (message requests). */
  inRequests: boolean;
  /** Applies to notifications (every notice with a member behind it). */
  inNotifications: boolean;
};

export const DEFAULT_REQUESTS_FILTERS: RequestsFilters = { newerThanDays: 0, noAvatar: false, notFollowed: false, inRequests: true, inNotifications: true };

/** "Decline everything from a member": what was turned down, counted (the sender is told nothing). */
export type DeclinedEverything = { idRequest: number; status: "declined"; friendRequests: number; notifications: number };
