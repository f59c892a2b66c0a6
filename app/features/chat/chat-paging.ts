/**
 * How much of a room's first page (up to 200 messages) is drawn (README Decisions "Lighter main pages"): the newest
 * FIRST_PAINT at once, which is also all the public chat's page brings, and PAINT_STEP more each time the member
 * scrolls up to them. Rendering all of them after load kept a phone busy for seconds.
 */
export const FIRST_PAINT = 12;
export const PAINT_STEP = 24;
