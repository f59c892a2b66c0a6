import { sql } from "drizzle-orm";
import type { ChatMessage, Payload, RoomImageRevealed } from "../../contract/chat";
import { mediaKeyFromUrl, mediaUrl } from "../../contract/media";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { strangerBlursSql } from "../members/stranger-media";
import type { ChatMember } from "./chat-access";
import { messageDetail } from "./chat-messages";

/**
 * Images posted in shared rooms under the stranger-media rule (README Decisions "Stranger media stays blurred"): a
 * reader whose setting covers the author gets the image's blurred rendition in place of the original, on pages, notes
 * and socket frames, with `strangerBlur` so the page offers a per-item reveal (`revealRoomImage`). The kept page of a
 * room is shared by every reader (chat-page-kept.ts), so this step runs per reader after it, never inside it.
 * Only `/media/` images are concerned: a private message's image (/private-media) has its own rule (`blurred`).
 * tests/api/stranger-media-rooms.test.ts holds pages, notes, frames and the reveal to it.
 */

/** The public media key of a message's image (`img` or `encodedImage` at /media/), or null. */
export function roomImageKeyOf(payload: Payload | null | undefined): string | null {
  if (payload?.type !== "img" && payload?.type !== "encodedImage") return null;
  return mediaKeyFromUrl(payload.src);
}

/**
 * The message as a reader covered by the rule gets it: the rendition as a plain `img` (an encoded image's key goes
 * too), or an empty src when the file has no rendition (older or foreign uploads): never the original.
 */
export function withBlurredImage(message: ChatMessage, rendition: string | null | undefined): ChatMessage {
  return { ...message, payload: { type: "img", src: rendition ?? "" } as Payload, strangerBlur: true };
}

/** The rendition URL of each public media key that has one (media_uploads.rendition_key). */
export async function renditionsOf(env: Env, keys: string[]): Promise<Map<string, string>> {
  if (!keys.length) return new Map();
  const rows = await getDb(env).all<{ key: string; rendition: string }>(
    sql`select key, rendition_key as rendition from media_uploads where key in (select value from json_each(${JSON.stringify(keys)})) and rendition_key is not null`,
  );
  return new Map(rows.map((row) => [row.key, mediaUrl(row.rendition)]));
}

type Reader = Pick<ChatMember, "memberId" | "memberNo" | "projectCode">;

/**
 * `messages` as `reader` may get them: images of authors the reader's setting covers become renditions. One D1
 * statement, and only when some other member's message carries a public image: the authors the rule covers
 * (`strangerBlursSql`, the same rule as the cards) and those images' renditions.
 */
export async function blurRoomImages(env: Env, messages: ChatMessage[], reader: Reader | null): Promise<ChatMessage[]> {
  if (!reader) return messages;
  const images = messages.filter((m) => m.memberNo !== reader.memberNo && roomImageKeyOf(m.payload));
  if (!images.length) return messages;
  const authors = [...new Set(images.map((m) => m.memberNo))];
  const keys = [...new Set(images.map((m) => roomImageKeyOf(m.payload)!))];
  const row = await getDb(env).get<{ blurred: string; renditions: string }>(sql`select
    (select json_group_array(p.simple_code) from profiles p where p.project_code = ${reader.projectCode}
      and p.simple_code in (select value from json_each(${JSON.stringify(authors)})) and ${strangerBlursSql(reader.memberId, sql`p.member_id`)}) as blurred,
    (select json_group_object(u.key, u.rendition_key) from media_uploads u
      where u.key in (select value from json_each(${JSON.stringify(keys)})) and u.rendition_key is not null) as renditions`);
  const blurred = new Set(JSON.parse(row?.blurred ?? "[]") as string[]);
  if (!blurred.size) return messages;
  const renditions = JSON.parse(row?.renditions ?? "{}") as Record<string, string>;
  return messages.map((m) => {
    const key = m.memberNo !== reader.memberNo && blurred.has(m.memberNo) ? roomImageKeyOf(m.payload) : null;
    return key ? withBlurredImage(m, renditions[key] ? mediaUrl(renditions[key]) : null) : m;
  });
}

/** A page's public image sources, as the page SQL and kept rows write them (JSON without spaces, or with). */
const PUBLIC_IMAGE = /"src":\s*"\/media\//;

/** `blurRoomImages` for a page as JSON text: unchanged (not even parsed) when no message carries a public image. */
export async function blurRoomImagesJson(env: Env, page: string, reader: Reader | null): Promise<string> {
  if (!reader || !PUBLIC_IMAGE.test(page)) return page;
  const messages = JSON.parse(page) as ChatMessage[];
  const shown = await blurRoomImages(env, messages, reader);
  return shown === messages ? page : JSON.stringify(shown);
}

/**
 * The per-item reveal: one message's original image for a member who may see that message, whatever their setting
 * (`messageDetail` decides: tenant, room, a block either way, a report by the member: not found). A message without a
 * public image, a private message's placeholder or a deleted one: not found. Nothing is remembered.
 */
export async function revealRoomImage(env: Env, member: ChatMember, id: number): Promise<RoomImageRevealed> {
  const message = await messageDetail(env, member.projectCode, id, member, true);
  if (message.placeholder || message.deleted || !message.payload || !roomImageKeyOf(message.payload)) throw new AppError("notFound");
  return { idChatroomMessage: message.idChatroomMessage, payload: message.payload };
}
