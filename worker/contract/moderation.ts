import { z } from "zod";
import { MemberNo } from "./common";
import type { ProfileSummary } from "./profile-summary";

export * from "./moderation.constants";

/** An operator's decision on a member's case (open reports and unqualified marks). */
export const DecisionBody = z.discriminatedUnion("action", [
  /** Uphold: a posting suspension for `hours` (1 h – 1 year), or until lifted (null). */
  z.object({ action: z.literal("suspend"), hours: z.number().int().min(1).max(8760).nullable() }),
  /** Uphold: the avatar is taken down (qualify false); the same file uploaded again stays down. */
  z.object({ action: z.literal("takedown") }),
  z.object({ action: z.literal("dismiss") }),
  z.object({ action: z.literal("lift") }),
]);
export type DecisionBody = z.infer<typeof DecisionBody>;

export const AppealBody = z.object({ idAction: z.number().int().positive(), text: z.string().trim().max(1000).default("") });
export const AppealDecisionBody = z.object({ grant: z.boolean() });
export const OperatorBody = z.object({ memberNo: MemberNo });

export type ReportReason = { reason: string; dateAdd: string; weight: number };

/** One member in the queue: their card, what was said, how much it weighs, where they stand. */
export type ModerationCase = {
  profile: ProfileSummary;
  reports: ReportReason[];
  reportWeight: number;
  marks: number;
  markWeight: number;
  /** ISO end of a running suspension; null when none or indefinite (see `suspendedIndefinitely`). */
  suspendedUntil: string | null;
  suspendedIndefinitely: boolean;
  /**
   * Other accounts of the tenant sharing a sign-in signal hash with this member (block-evasion.ts): how many (up to
   * RELATED_LIMIT) and their member numbers. Never an address, a device id or a hash.
   */
  relatedAccounts: { count: number; memberNos: string[] };
};

export type ModerationAppeal = {
  idAction: number;
  action: "suspend" | "takedown";
  until: string | null;
  appeal: string;
  appealedAt: string;
  profile: ProfileSummary;
};

export type ModerationQueue = { cases: ModerationCase[]; appeals: ModerationAppeal[] };
export type DecisionResult = { memberNo: string; action: DecisionBody["action"]; idAction: number; suspendedUntil: string | null; qualify: boolean };
