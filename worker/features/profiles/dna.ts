import { Hono } from "hono";
import { z } from "zod";
import { and, eq, inArray } from "drizzle-orm";
import { ok } from "../../contract/envelope";
import { MemberNo } from "../../contract/common";
import type { ZodiacSign } from "../../contract/profiles";
import { DNA_TAGS_NAMED, type DnaReading, type DnaReason, type ZodiacElement } from "../../contract/dna";
import { getDb } from "../../db/client";
import { characters, userCharacters } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { sessionProject } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { closedTo, seenAsVisitor } from "../members/profile-access";
import { matchRate } from "../members/profile-math";
import { profileByCode, profileByMemberId } from "./profiles.service";
import { GENDERS_FOR_LOOK_FOR } from "./profile-discovery";

/**
 * DNA pairing (§7 Social "family/dna GET", §3 Dna: zodiacSign; README Decisions "DNA pairing and creator profiles").
 * The reading uses only what the viewer may already see of the member on the public profile: the zodiac sign (never
 * the birthday), the role attribute and looking-for, and the preference tags — and only where the page would show
 * them with a match rate (profile-access.ts: not closed to the viewer, not seen as a visitor). Everything else is
 * "not found" (blocks either way, another tenant, deleted) or `available: false`.
 */

const ELEMENT: Record<ZodiacSign, ZodiacElement> = {
  aries: "fire", leo: "fire", sagittarius: "fire",
  taurus: "earth", virgo: "earth", capricorn: "earth",
  gemini: "air", libra: "air", aquarius: "air",
  cancer: "water", scorpio: "water", pisces: "water",
};
/** Fire feeds on air, earth holds water: the classic complementary pairs. */
const COMPLEMENTARY = new Set(["fire:air", "air:fire", "earth:water", "water:earth"]);
/** Weights of the three parts (a part that is unknown drops out and the others are scaled up). */
const WEIGHT = { zodiac: 0.3, roles: 0.4, tags: 0.3 } as const;

type Side = "viewer" | "member" | "both";
const sideOf = (viewerKnown: boolean, memberKnown: boolean): Side => (!viewerKnown && !memberKnown ? "both" : !viewerKnown ? "viewer" : "member");

export function zodiacPart(viewerSign: ZodiacSign | null, memberSign: ZodiacSign | null): { score: number | null; reason: DnaReason } {
  if (!viewerSign || !memberSign) return { score: null, reason: { code: "zodiacUnknown", params: { side: sideOf(Boolean(viewerSign), Boolean(memberSign)) } } };
  const [a, b] = [ELEMENT[viewerSign], ELEMENT[memberSign]];
  if (viewerSign === memberSign) return { score: 90, reason: { code: "sameSign", params: { sign: viewerSign } } };
  if (a === b) return { score: 85, reason: { code: "sameElement", params: { element: a, viewerSign, memberSign } } };
  if (COMPLEMENTARY.has(`${a}:${b}`)) return { score: 75, reason: { code: "complementaryElements", params: { viewerElement: a, memberElement: b } } };
  return { score: 50, reason: { code: "differentElements", params: { viewerElement: a, memberElement: b } } };
}

/** §3 multiGender: 1-2 dominant, 3-4 submissive, 5-6 switch. */
const stance = (gender: number) => (gender <= 2 ? "dominant" : gender <= 4 ? "submissive" : "switch");

export function rolesPart(
  viewer: { multiGender: number | null; lookFor: number | null },
  member: { multiGender: number | null; lookFor: number | null },
): { score: number | null; reasons: DnaReason[] } {
  const [vg, mg] = [viewer.multiGender, member.multiGender];
  if (!vg || !mg) return { score: null, reasons: [{ code: "rolesUnknown", params: { side: sideOf(Boolean(vg), Boolean(mg)) } }] };
  const reasons: DnaReason[] = [];
  let score = 0;
  // §3 lookFor names the role attribute sought (the pick-for-you rule, GENDERS_FOR_LOOK_FOR).
  if (viewer.lookFor && (GENDERS_FOR_LOOK_FOR[viewer.lookFor] ?? []).includes(mg)) {
    score += 35;
    reasons.push({ code: "viewerSeeksMember", params: { memberGender: mg } });
  }
  if (member.lookFor && (GENDERS_FOR_LOOK_FOR[member.lookFor] ?? []).includes(vg)) {
    score += 35;
    reasons.push({ code: "memberSeeksViewer", params: { viewerGender: vg } });
  }
  const [sv, sm] = [stance(vg), stance(mg)];
  if ((sv === "dominant" && sm === "submissive") || (sv === "submissive" && sm === "dominant")) {
    score += 30;
    reasons.push({ code: "rolesComplement", params: { viewerGender: vg, memberGender: mg } });
  } else if (sv === "switch" || sm === "switch") {
    score += 20;
    reasons.push({ code: "switchFlexible", params: { viewerGender: vg, memberGender: mg } });
  } else reasons.push({ code: "sameRole", params: { viewerGender: vg, memberGender: mg } });
  return { score: Math.min(100, score), reasons };
}

export function tagsPart(viewerTags: number[], memberTags: number[], titles: Map<number, string>): { score: number; reason: DnaReason } {
  const theirs = new Set(memberTags);
  const shared = [...new Set(viewerTags)].filter((id) => theirs.has(id)).sort((a, b) => a - b);
  // §9 match rate (the same number the public profile shows beside the tags).
  const score = matchRate(viewerTags, memberTags);
  if (!shared.length) return { score, reason: { code: "noSharedTags", params: {} } };
  const tags = shared.slice(0, DNA_TAGS_NAMED).map((idCharacter) => ({ idCharacter, title: titles.get(idCharacter) ?? "" }));
  return { score, reason: { code: "sharedTags", params: { count: shared.length, tags } } };
}

export function combine(parts: { zodiac: number | null; roles: number | null; tags: number }): number {
  let sum = 0;
  let weight = 0;
  for (const key of ["zodiac", "roles", "tags"] as const) {
    const value = parts[key];
    if (value == null) continue;
    sum += value * WEIGHT[key];
    weight += WEIGHT[key];
  }
  return weight ? Math.round(sum / weight) : 0;
}

const unavailable = (simpleCode: string): DnaReading => ({ simpleCode, available: false, score: null, reasons: [] });

/** The reading of `simpleCode` for the signed-in `viewerId` in `projectCode`. */
export async function dnaReading(env: Env, projectCode: string, simpleCode: string, viewerId: string): Promise<DnaReading> {
  // Missing, deleted, blocked either way → "not found"; closed to this viewer → nothing of the member (profile-access.ts).
  const closed = await closedTo(env, projectCode, simpleCode, viewerId);
  const [target, viewer] = await Promise.all([profileByCode(env, projectCode, simpleCode), profileByMemberId(env, viewerId)]);
  if (!target || !viewer || viewer.projectCode !== projectCode) throw new AppError("notFound");
  if (closed || target.memberId === viewerId) return unavailable(target.simpleCode);
  // README Decisions "Approve followers": a member not accepted gets what a visitor gets, and visitors get no reading.
  if (await seenAsVisitor(env, projectCode, simpleCode, viewerId)) return unavailable(target.simpleCode);

  const db = getDb(env);
  const rows = await db
    .select({ memberId: userCharacters.memberId, idCharacter: userCharacters.idCharacter, title: characters.title })
    .from(userCharacters)
    .innerJoin(characters, eq(characters.idCharacter, userCharacters.idCharacter))
    .where(and(inArray(userCharacters.memberId, [viewerId, target.memberId]), inArray(characters.projectCode, ["*", projectCode])));
  const titles = new Map(rows.map((r) => [r.idCharacter, r.title]));
  const tagsOf = (memberId: string) => rows.filter((r) => r.memberId === memberId).map((r) => r.idCharacter);

  const zodiac = zodiacPart(viewer.zodiacSign as ZodiacSign | null, target.zodiacSign as ZodiacSign | null);
  const roles = rolesPart(viewer, target);
  const tags = tagsPart(tagsOf(viewerId), tagsOf(target.memberId), titles);
  const parts = { zodiac: zodiac.score, roles: roles.score, tags: tags.score };
  return {
    simpleCode: target.simpleCode,
    available: true,
    score: combine(parts),
    parts,
    viewerSign: (viewer.zodiacSign as ZodiacSign | null) ?? null,
    memberSign: (target.zodiacSign as ZodiacSign | null) ?? null,
    reasons: [zodiac.reason, ...roles.reasons, tags.reason],
  };
}

const DnaParam = z.object({ project: z.string(), simpleCode: MemberNo });

/** Signed-in members only: a reading compares the viewer with the member, and a visitor has nothing to compare. */
export const dnaPrivate = new Hono<AppEnv>().get("/family/dna/:project/:simpleCode", validate("param", DnaParam), async (c) => {
  const project = sessionProject(c, c.req.valid("param").project);
  return c.json(ok(await dnaReading(c.env, project, c.req.valid("param").simpleCode, c.get("member").memberId)));
});

/** The public address answers "Login required" (401), so a visitor's page asks them to log in rather than 404. */
export const dnaPublic = new Hono<AppEnv>().get("/family/dna/:project/:simpleCode", () => {
  throw new AppError("unauthorized");
});
