import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { isOk } from "../../../worker/contract/envelope";
import type { FlameRequest } from "../../../worker/contract/social";
import { Avatar } from "../../components/avatar";
import * as social from "../../api/social-api";
import { profilePath } from "./social-client";


/** README Decisions "Verification": the holder's open requests on home's flame card; each opens the profile to approve. */
export function FlameRequests({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("social");
  const [list, setList] = useState<FlameRequest[] | null>(null);

  useEffect(() => {
    let live = true;
    void social.flameRequests(projectCode).then((body) => {
      if (live && isOk(body)) setList(body.info.requests);
    });
    return () => {
      live = false;
    };
  }, [projectCode]);

  if (!list) return null;
  return (
    <div className="stack flame-requests">
      <h3>{t("flame.requests")}</h3>
      {list.length === 0 ? (
        <p className="muted">{t("flame.noRequests")}</p>
      ) : (
        <ul className="stack">
          {list.map((r) => (
            <li key={r.memberNo}>
              <Link className="person" to={profilePath(projectCode, r.memberNo)}>
                <Avatar profile={r.profile} size={36} />
                <span className="person-name">{r.profile.nickname || r.memberNo}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
