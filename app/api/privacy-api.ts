import type { AccountDeleted, DataExport } from "../../worker/contract/privacy";
import { api } from "../lib/api";

/** The member's own data (README Decisions on export and deletion), each with its path, method and answer type written once. */

export const exportData = (memberId: string) => api<DataExport>(`/private/core/members/${encodeURIComponent(memberId)}/export`);
export const deleteAccount = (memberId: string, password: string) =>
  api<AccountDeleted>(`/private/core/members/${encodeURIComponent(memberId)}`, { method: "DELETE", body: { password } });
