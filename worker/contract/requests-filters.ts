import { z } from "zod";

/**
 * Filters for the requests tray and notifications (README Decisions "Filters for requests and notifications"): one
 * set of criteria, and where it applies. A sender matching ANY switched-on criterion is filtered: their request or
 * notice is kept in the "Filtered" section and never sounds or pushes.
 */
export const RequestsFiltersBody = z
  .object({
    /** Accounts younger than this many days; 0 = off. */
    newerThanDays: z.number().int().min(0).max(365),
    noAvatar: z.boolean(),
    notFollowed: z.boolean(),
    /** Applies to the requests tray (message requests). */
    inRequests: z.boolean(),
    /** Applies to notifications (every notice with a member behind it). */
    inNotifications: z.boolean(),
  })
  .strict();
export type RequestsFilters = z.infer<typeof RequestsFiltersBody>;

export const DEFAULT_REQUESTS_FILTERS: RequestsFilters = { newerThanDays: 0, noAvatar: false, notFollowed: false, inRequests: true, inNotifications: true };

/** "Decline everything from a member": what was turned down, counted (the sender is told nothing). */
export type DeclinedEverything = { idRequest: number; status: "declined"; friendRequests: number; notifications: number };
