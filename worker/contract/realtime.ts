import { z } from "zod";
import { PostMessageBody } from "./chat";
import type { ServerEvent } from "./server-event";

/** Socket protocol (§7 Real time), shared by rooms and the browser: the server's events (./server-event), the client's here. */
export type { ServerEvent };

export const ClientEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping") }),
  /** Send a chat message over the socket (same rules as the HTTP call). */
  z.object({ type: z.literal("chat.send"), body: PostMessageBody }),
  /** §4 presence: offline on page unload, before the socket closes. */
  z.object({ type: z.literal("presence.leave") }),
]);
export type ClientEvent = z.infer<typeof ClientEvent>;
