import type { PostingStatus } from "../../worker/contract/social";
import { api } from "../lib/api";

/** Whether the member may post now (README Decisions on posting limits), with its path and answer type written once. */

export const postingStatus = () => api<PostingStatus>("/private/core/posting-status");
