import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import * as social from "../../api/social-api";
import { errorText } from "../../lib/error-text";
import { useSignedIn } from "../shell/viewer";
import { useTwoStep } from "../social/social-client";
import { Icon } from "../../components/icon";

/**
 * §2 torch relay button and §6 approval, shown only to the flame holder on another member's public profile.
 * The server decides (403601 for anyone else); this only hides what the viewer cannot use. Approve appears while the
 * member is unverified (and says when they asked); passing the flame asks twice, as it clears the holder's own.
 */
export function FlameControls({ projectCode, memberNo, kycStatus }: { projectCode: string; memberNo: string; kycStatus: number }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const [holder, setHolder] = useState(false);
  const [asked, setAsked] = useState(false);
  const [kyc, setKyc] = useState(kycStatus);
  // A visitor holds no flame: no private call that could only fail.
  const signedIn = useSignedIn();

  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void (async () => {
      const flame = await social.lastFlame(projectCode);
      if (!live || !isOk(flame) || !flame.info.mine || flame.info.memberNo === memberNo) return;
      setHolder(true);
      const list = await social.flameRequests(projectCode);
      if (live && isOk(list)) setAsked(list.info.requests.some((r) => r.memberNo === memberNo));
    })();
    return () => {
      live = false;
    };
  }, [projectCode, memberNo, signedIn]);

  const pass = useTwoStep(async () => {
    const body = await social.passFlame(projectCode, memberNo);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setHolder(false);
    toast(t("flame.passed"), "success");
  });

  async function approve() {
    const body = await social.approveByFlame(projectCode, memberNo);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setKyc(body.info.kycStatus);
    setAsked(false);
    toast(t("flame.approved"), "success");
  }

  if (!holder) return null;
  return (
    <section className="card stack flame-controls" aria-label={t("flame.controls")}>
      {kyc < 1 && (
        <div className="row">
          {asked && <span className="muted">{t("flame.asked")}</span>}
          <button type="button" className="button button-primary" onClick={() => void approve()}>
            {t("flame.approve")}
          </button>
        </div>
      )}
      <button type="button" className="button" aria-pressed={pass.armed} onClick={() => void pass.tap()}>
        <Icon name="flame" className="icon-flame" /> {pass.armed ? t("flame.passConfirm") : t("flame.pass")}
      </button>
    </section>
  );
}
