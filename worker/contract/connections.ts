import { z } from "zod";
import { CONNECTIONS_AUDIENCES } from "./connections.constants";

export * from "./connections.constants";

/** PUT /private/core/connections-visibility/{memberId}: the one field, nothing else (400 otherwise). */
export const ConnectionsSettingsBody = z.object({ connectionsVisibility: z.enum(CONNECTIONS_AUDIENCES) }).strict();
