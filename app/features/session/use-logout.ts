import { useNavigate } from "react-router";
import { api } from "../../lib/api";
import { sessionEndingHere } from "../../lib/realtime";
import { clearSession } from "../../lib/session-keys";

/** §4: logout calls expire and clears the keys. */
export function useLogout(projectCode: string) {
  const navigate = useNavigate();
  return async () => {
    sessionEndingHere();
    await api("/private/core/sessions/expire", { method: "POST" });
    clearSession();
    navigate(`/${projectCode}/login`, { replace: true });
  };
}
