import { useNavigate } from "react-router";
import * as session from "../../api/session-api";
import { sessionEndingHere } from "../../lib/realtime";
import { clearSession } from "../../lib/session-keys";

/** §4: logout calls expire and clears the keys. */
export function useLogout(projectCode: string) {
  const navigate = useNavigate();
  return async () => {
    sessionEndingHere();
    await session.logout();
    clearSession();
    navigate(`/${projectCode}/login`, { replace: true });
  };
}
