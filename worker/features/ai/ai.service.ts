import { and, desc, eq, gt, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { aiImages } from "../../db/schema";
import { AI_RATE, isAsciiPrompt, type AiImage } from "../../contract/ai";
import { AppError } from "../../lib/app-error";
import type { SessionMember } from "../../lib/session-member";
import { randomString } from "../../lib/crypto";
import { iso, now } from "../../lib/time";
import { storeImage } from "../images/image-pipeline";
import { notify } from "../notifications/notify";
import { imageGenerator, type ImageGenerator } from "./image-generator";

export const OUTPUT_PREFIX = "/output/";
export const outputUrl = (file: string) => `${OUTPUT_PREFIX}${file}`;
const FILE_NAME = /^[A-Za-z0-9]{24}\.(jpg|png)$/;

/** §6: kycStatus 9 sees the AI room. A caller without a session is not such a member either. */
export function requireAiMember(member: SessionMember | undefined): SessionMember {
  if (member?.kycStatus !== 9) throw new AppError("aiRoomOnly");
  return member;
}

type Row = typeof aiImages.$inferSelect;
const toAiImage = (row: Row): AiImage => ({
  idImage: row.idImage,
  imageUrl: outputUrl(row.file),
  prompt: row.prompt,
  blur: row.blur,
  status: row.status,
  dateAdd: iso(row.createdAt)!,
});

/**
 * Records a pending image and answers at once; the caller runs `generate` in the background.
 * §5 ASCII only; per-member limit of AI_RATE images started inside the window.
 */
export async function startImage(env: Env, member: SessionMember, prompt: string) {
  if (!isAsciiPrompt(prompt)) throw new AppError("aiEnglishOnly");
  const db = getDb(env);
  const at = now();
  const recent = await db
    .select({ n: sql<number>`count(*)` })
    .from(aiImages)
    .where(and(eq(aiImages.memberId, member.memberId), gt(aiImages.createdAt, at - AI_RATE.windowMs)))
    .get();
  if ((recent?.n ?? 0) >= AI_RATE.limit) throw new AppError("aiTooManyImages");
  const generator = imageGenerator(env);
  const row = await db
    .insert(aiImages)
    .values({ projectCode: member.projectCode, memberId: member.memberId, prompt, file: `${randomString(24)}.jpg`, provider: generator.name, createdAt: at })
    .returning()
    .get();
  return { image: toAiImage(row), run: () => generate(env, member, row, generator) };
}

/** Background half: render, store in R2 under kind "ai", mark ready, tell the member's inbox. */
async function generate(env: Env, member: SessionMember, row: Row, generator: ImageGenerator) {
  const db = getDb(env);
  try {
    const bytes = await generator.generate(row.prompt);
    const stored = await storeImage(env, { projectCode: member.projectCode, memberNo: member.memberNo, kind: "ai", bytes, maxSide: 512 });
    // §5 graphic check: a flagged image is shown blurred in the gallery.
    await db.update(aiImages).set({ status: "ready", mediaKey: stored.key, blur: stored.graphic, readyAt: now() }).where(eq(aiImages.idImage, row.idImage));
    await notify(env, {
      projectCode: member.projectCode,
      memberId: member.memberId,
      type: "aiImageReady",
      params: { idImage: row.idImage, imageUrl: outputUrl(row.file), prompt: row.prompt },
    });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "ai image failed", idImage: row.idImage, error: String(error) }));
    await db.update(aiImages).set({ status: "failed" }).where(eq(aiImages.idImage, row.idImage));
  }
}

/** The member's own gallery, newest first. */
export async function listImages(env: Env, member: SessionMember, pageSize: number): Promise<AiImage[]> {
  const rows = await getDb(env)
    .select()
    .from(aiImages)
    .where(and(eq(aiImages.memberId, member.memberId), eq(aiImages.projectCode, member.projectCode)))
    .orderBy(desc(aiImages.idImage))
    .limit(pageSize);
  return rows.map(toAiImage);
}

/** `/output/{file}`: the R2 object once ready, else null (404). The unguessable file name is the capability. */
export async function outputObject(env: Env, file: string) {
  if (!FILE_NAME.test(file)) return null;
  const row = await getDb(env).select({ mediaKey: aiImages.mediaKey, status: aiImages.status }).from(aiImages).where(eq(aiImages.file, file)).get();
  if (row?.status !== "ready" || !row.mediaKey) return null;
  return env.MEDIA.get(row.mediaKey);
}
