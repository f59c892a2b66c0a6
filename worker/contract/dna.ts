import { z } from "zod";
import { ZODIAC_SIGNS } from "./profiles";

/**
 * GET /family/dna/{project}/{simpleCode} (§7 Social "family/dna GET"; §3 Dna: zodiacSign): a compatibility reading
 * between the signed-in viewer and one member, from zodiac signs, roles (multiGender / lookFor) and shared
 * preference tags (README Decisions "DNA pairing and creator profiles"). Each reason is a code with parameters; the
 * page words it in the viewer's language (app/features/profiles/dna-card.tsx), the server never sends sentences.
 */
export const ZODIAC_ELEMENTS = ["fire", "earth", "air", "water"] as const;
export type ZodiacElement = (typeof ZODIAC_ELEMENTS)[number];

const Sign = z.enum(ZODIAC_SIGNS);
const Element = z.enum(ZODIAC_ELEMENTS);
const Gender = z.number().int().min(1).max(6);
/** At most this many shared tags are named in a reason (the count says how many there are). */
export const DNA_TAGS_NAMED = 5;

export const DnaReason = z.discriminatedUnion("code", [
  z.object({ code: z.literal("sameSign"), params: z.object({ sign: Sign }) }),
  z.object({ code: z.literal("sameElement"), params: z.object({ element: Element, viewerSign: Sign, memberSign: Sign }) }),
  z.object({ code: z.literal("complementaryElements"), params: z.object({ viewerElement: Element, memberElement: Element }) }),
  z.object({ code: z.literal("differentElements"), params: z.object({ viewerElement: Element, memberElement: Element }) }),
  z.object({ code: z.literal("zodiacUnknown"), params: z.object({ side: z.enum(["viewer", "member", "both"]) }) }),
  /** The viewer's looking-for names the member's role attribute. */
  z.object({ code: z.literal("viewerSeeksMember"), params: z.object({ memberGender: Gender }) }),
  z.object({ code: z.literal("memberSeeksViewer"), params: z.object({ viewerGender: Gender }) }),
  /** One dominant (1-2), the other submissive (3-4). */
  z.object({ code: z.literal("rolesComplement"), params: z.object({ viewerGender: Gender, memberGender: Gender }) }),
  /** At least one switch (5-6). */
  z.object({ code: z.literal("switchFlexible"), params: z.object({ viewerGender: Gender, memberGender: Gender }) }),
  z.object({ code: z.literal("sameRole"), params: z.object({ viewerGender: Gender, memberGender: Gender }) }),
  z.object({ code: z.literal("rolesUnknown"), params: z.object({ side: z.enum(["viewer", "member", "both"]) }) }),
  z.object({
    code: z.literal("sharedTags"),
    params: z.object({ count: z.number().int().positive(), tags: z.array(z.object({ idCharacter: z.number().int(), title: z.string() })) }),
  }),
  z.object({ code: z.literal("noSharedTags"), params: z.object({}) }),
]);
export type DnaReason = z.infer<typeof DnaReason>;
export type DnaReasonCode = DnaReason["code"];

/**
 * The reading. `available: false` (nothing else) where the viewer may not read the member's compatibility: their own
 * profile, a closed profile not opened to them, or a member who approves followers and has not accepted them (who
 * gets what a visitor gets, and visitors get no reading). Parts are 0..100, null when one side is unknown.
 */
export const DnaReading = z.union([
  z.object({
    simpleCode: z.string(),
    available: z.literal(true),
    score: z.number().int().min(0).max(100),
    parts: z.object({ zodiac: z.number().int().nullable(), roles: z.number().int().nullable(), tags: z.number().int() }),
    viewerSign: Sign.nullable(),
    memberSign: Sign.nullable(),
    reasons: z.array(DnaReason),
  }),
  z.object({ simpleCode: z.string(), available: z.literal(false), score: z.null(), reasons: z.array(DnaReason).length(0) }),
]);
export type DnaReading = z.infer<typeof DnaReading>;
