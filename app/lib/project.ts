import { useParams } from "react-router";

/** The tenant of the current page, lower-case as in the URL (default smp). */
export function useProjectCode(): string {
  return (useParams().projectCode ?? "smp").toLowerCase();
}

/** Upper-case form used by API paths (§7: stored upper-case). */
export const apiProject = (code: string) => code.toUpperCase();
