import { z } from "zod";

/** Socket protocol (§7 Real time): one zod union per direction, shared by rooms and the browser. */
export const ServerEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("welcome"), memberNo: z.string(), room: z.string() }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;

export const ClientEvent = z.discriminatedUnion("type", [z.object({ type: z.literal("ping") })]);
export type ClientEvent = z.infer<typeof ClientEvent>;
