import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ConnectionsVisibility } from "../../../worker/contract/connections.constants";
import { isOk } from "../../../worker/contract/envelope";
import * as settings from "../../api/settings-api";
import { CONNECTIONS_SECTION_ID } from "../safety/connections-section";
import { useMemberId } from "./social-client";
import "./connections-hint.css";

/**
 * Beside the member's own followers, following and sub-member lists: who else sees them, and a link to change it in
 * Settings (README Decisions "Who sees my connections").
 */
export function ConnectionsHint({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("connections");
  const memberId = useMemberId();
  const [audience, setAudience] = useState<ConnectionsVisibility | null>(null);

  useEffect(() => {
    if (!memberId) return;
    void settings.connectionsVisibility(memberId).then(
      (body) => isOk(body) && setAudience(body.info.connectionsVisibility),
    );
  }, [memberId]);

  if (!audience) return null;
  return (
    <p className={audience === "everyone" ? "muted connections-hint" : "connections-hint connections-hint-hidden"} data-audience={audience}>
      <span>{t(`hint.${audience}`)}</span>{" "}
      <Link to={`/${projectCode.toLowerCase()}/settings#${CONNECTIONS_SECTION_ID}`}>{t("hint.change")}</Link>
    </p>
  );
}
