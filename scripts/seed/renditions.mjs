// Demo images the way the upload pipeline stores them: the original under a random key and a blurred rendition under
// a key of its own random id (README Decisions on renditions), recorded in media_uploads. The blur itself is the
// worker's (worker/lib/blur-rendition.ts); photon only encodes here, as the seeds' other images.
import { PhotonImage } from "@cf-wasm/photon/node";
import { blurredRendition } from "../../worker/lib/blur-rendition.ts";
import { randomString } from "../../worker/lib/crypto.ts";

const jpeg = (pixels, width, height, quality) => {
  const image = new PhotonImage(pixels, width, height);
  const bytes = image.get_bytes_jpeg(quality);
  image.free();
  return bytes;
};

/**
 * Puts `pixels` (RGBA) in R2 as `<project>/<memberNo>/<kind>/<random>.jpg` with its rendition beside it, and returns
 * the two URLs and the media_uploads row to insert.
 */
export async function putWithRendition(env, { project, memberNo, memberId, kind, pixels, width, height, quality = 82, createdAt }) {
  const key = `${project}/${memberNo}/${kind}/${randomString(24)}.jpg`;
  const renditionKey = `${project}/${memberNo}/blur/${randomString(24)}.jpg`;
  const blurred = blurredRendition({ data: pixels, width, height });
  await env.MEDIA.put(key, jpeg(pixels, width, height, quality), { httpMetadata: { contentType: "image/jpeg" } });
  await env.MEDIA.put(renditionKey, jpeg(blurred.data, blurred.width, blurred.height, 60), { httpMetadata: { contentType: "image/jpeg" } });
  return {
    url: `/media/${key}`,
    renditionUrl: `/media/${renditionKey}`,
    upload: env.DB.prepare(
      "insert into media_uploads (key, project_code, member_id, kind, width, height, graphic, rendition_key, created_at) values (?, ?, ?, ?, ?, ?, 0, ?, ?)",
    ).bind(key, project, memberId, kind, width, height, renditionKey, createdAt),
  };
}
