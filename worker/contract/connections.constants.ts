/**
 * Who sees my connections (README Decisions "Who sees my connections"): the audience of a member's followers,
 * following, friends and sub-member lists and counts. `friends` = accepted friends (either side asked). The owner
 * always sees their own. Zod-free so pages may import it.
 */
export const CONNECTIONS_AUDIENCES = ["everyone", "friends", "nobody"] as const;
export type ConnectionsVisibility = (typeof CONNECTIONS_AUDIENCES)[number];
export const DEFAULT_CONNECTIONS_VISIBILITY: ConnectionsVisibility = "everyone";

/** GET/PUT /private/core/connections-visibility/{memberId}. */
export type ConnectionsSettings = { connectionsVisibility: ConnectionsVisibility };
