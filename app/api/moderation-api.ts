import type { DecisionBody, DecisionResult } from "../../worker/contract/moderation";
import { api } from "../lib/api";

/** The moderation endpoints (§7 core moderation), each with its path, method and answer type written once. */

const tenant = (projectCode: string) => projectCode.toUpperCase();

/** A member's appeal against a decision on them. */
export const appeal = (projectCode: string, idAction: number, text: string) =>
  api(`/private/core/moderation/${tenant(projectCode)}/appeals`, { body: { idAction, text } });

export const decide = (projectCode: string, memberNo: string, body: DecisionBody) =>
  api<DecisionResult>(`/private/core/moderation/${tenant(projectCode)}/members/${memberNo}/decisions`, { body });
export const decideAppeal = (projectCode: string, idAction: number, grant: boolean) =>
  api<DecisionResult>(`/private/core/moderation/${tenant(projectCode)}/appeals/${idAction}/decision`, { body: { grant } });

export const addOperator = (projectCode: string, memberNo: string) => api(`/private/core/moderation/${tenant(projectCode)}/operators`, { body: { memberNo } });
export const setFlameHolder = (projectCode: string, memberNo: string) => api(`/private/core/moderation/${tenant(projectCode)}/flame`, { body: { memberNo } });
export const grantAiRoom = (projectCode: string, memberNo: string) =>
  api(`/private/core/moderation/${tenant(projectCode)}/members/${encodeURIComponent(memberNo)}/ai-room`, { body: {} });
