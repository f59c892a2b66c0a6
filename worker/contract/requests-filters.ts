import { z } from "zod";
import type { RequestsFilters } from "./requests-filters.constants";

export { DEFAULT_REQUESTS_FILTERS, type DeclinedEverything, type RequestsFilters } from "./requests-filters.constants";

/**
 * Filters for the requests tray and notifications (README Decisions "Filters for requests and notifications"): one
 * set of criteria, and where it applies. A sender matching ANY switched-on criterion is filtered: their request or
 * notice is kept in the "Filtered" section and never sounds or pushes.
 */
export const RequestsFiltersBody = z
  .object({
    newerThanDays: z.number().int().min(0).max(365),
    noAvatar: z.boolean(),
    notFollowed: z.boolean(),
    inRequests: z.boolean(),
    inNotifications: z.boolean(),
  })
  .strict() satisfies z.ZodType<RequestsFilters>;
