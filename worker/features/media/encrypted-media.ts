import { mediaUrl } from "../../contract/media";
import type { UploadInfo } from "../../contract/profiles";
import { getDb } from "../../db/client";
import { AppError } from "../../lib/app-error";
import { randomString } from "../../lib/crypto";
import { recordChatImageStatement } from "../chat/chat-media";
import { actionStatement } from "../members/action-stats";

/** AES-GCM appends a 16-byte tag: anything shorter cannot be a browser-encrypted file. */
const MIN_CIPHERTEXT_BYTES = 17;

/**
 * An upload of type `encrypted` (README Decisions "Everything private is encrypted"): an image of a private message
 * that the browser already encrypted (AES-256-GCM, its own key, which only the two members' devices can unwrap).
 * The bytes are opaque here, so nothing decodes, resizes, blurs or re-encodes them — the browser re-encoded the
 * picture before encrypting it (which dropped EXIF/GPS). Stored exactly as sent under a server key of private kind
 * `e2e`, recorded for the uploader like a `dm` image, and served only by /private-media to sender and recipient.
 * The upload's budget, size cap and rate limit were checked by readUploadForm before a byte was read.
 */
export async function storeEncryptedImage(env: Env, member: { projectCode: string; memberNo: string; memberId: string }, file: File): Promise<UploadInfo> {
  const bytes = await file.arrayBuffer();
  if (bytes.byteLength < MIN_CIPHERTEXT_BYTES) throw new AppError("badRequest", { message: "An encrypted upload is at least 17 bytes" });
  const key = `${member.projectCode}/${member.memberNo}/e2e/${randomString(24)}.bin`;
  await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: "application/octet-stream" } });
  const db = getDb(env);
  await db.batch([recordChatImageStatement(db, { key, projectCode: member.projectCode, memberId: member.memberId }), actionStatement(env, member.projectCode, member.memberId)]);
  return { key, url: mediaUrl(key), width: 0, height: 0, graphic: false };
}
