import type { Context } from "hono";
import { AppError } from "../../lib/app-error";
import { rateLimit } from "../../http/rate-limit";
import type { AppEnv } from "../../http/types";
import { MAX_UPLOAD_BYTES } from "./image-pipeline";

/** Room for the multipart boundaries and the small text fields beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * The one way an upload route reads its multipart body. The member's upload budget is checked before a byte is
 * read; a declared length over the cap is refused at once, and a body without one (chunked) is counted as it
 * streams and cut off at the cap, so no upload route ever buffers more than MAX_UPLOAD_BYTES.
 */
export async function readUploadForm(c: Context<AppEnv>): Promise<FormData> {
  const member = c.get("member");
  await rateLimit(c.env.RL_UPLOAD, `upload:${member.memberId}`);
  const limit = MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES;
  const declared = c.req.header("Content-Length");
  if (declared !== undefined && !(Number(declared) <= limit)) throw new AppError("tooLarge");
  const body = c.req.raw.body;
  if (!body) throw new AppError("uploadMissing");
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new AppError("tooLarge");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return await new Response(bytes, { headers: { "Content-Type": c.req.header("Content-Type") ?? "" } }).formData();
  } catch {
    throw new AppError("uploadMissing");
  }
}
