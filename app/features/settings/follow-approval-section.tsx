import { Switch } from "../../components/switch";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import * as settings from "../../api/settings-api";
import { errorText } from "../../lib/error-text";

/**
 * Approve followers (README Decisions "Approve followers"): with it on, follows become requests answered from the
 * Chats tab, and members not accepted get a visitor's view. The server holds and enforces the setting (owner only).
 */
export function FollowApprovalSection({ memberId }: { memberId: string }) {
  const { t } = useTranslation("followers");
  const toast = useToast();
  const [on, setOn] = useState<boolean | null>(null);

  useEffect(() => {
    void settings.followApproval(memberId).then((body) => {
      if (isOk(body)) setOn(body.info.approveFollowers);
    });
  }, [memberId]);

  async function save(next: boolean) {
    const body = await settings.saveFollowApproval(memberId, next);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setOn(body.info.approveFollowers);
    toast(t("saved"), "success");
  }

  return (
    <section className="card" aria-labelledby="settings-followers">
      <h2 id="settings-followers">{t("title")}</h2>
      <div className="settings-row">
        <label htmlFor="settings-approve-followers">
          {t("approve")}
          <span className="settings-row-hint">{t("approveHint")}</span>
        </label>
        <Switch id="settings-approve-followers" checked={on ?? false} disabled={on === null} onCheckedChange={(next) => void save(next)} />
      </div>
    </section>
  );
}
