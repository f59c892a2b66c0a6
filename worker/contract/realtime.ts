import { z } from "zod";

/** Socket protocol (§7 Real time): one zod union per direction, shared by rooms and the browser. */
export const ServerEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("welcome"), memberNo: z.string(), room: z.string() }),
  z.object({
    type: z.literal("notification"),
    item: z.object({
      idNotification: z.number(),
      type: z.string(),
      actorMemberNo: z.string().nullable(),
      params: z.record(z.string(), z.unknown()),
      dateAdd: z.string(),
      read: z.boolean(),
    }),
  }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;

export const ClientEvent = z.discriminatedUnion("type", [z.object({ type: z.literal("ping") })]);
export type ClientEvent = z.infer<typeof ClientEvent>;
