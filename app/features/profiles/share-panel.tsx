import { QRCodeSVG } from "qrcode.react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../components/toast";

/** §2: QR code, the link with a copy button, and native share where the browser has it. */
export function SharePanel({ projectCode, memberNo, nickname }: { projectCode: string; memberNo: string; nickname: string }) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const [origin, setOrigin] = useState("");
  const [canShare, setCanShare] = useState(false);
  useEffect(() => {
    setOrigin(window.location.origin);
    setCanShare(typeof navigator.share === "function");
  }, []);
  const link = `${origin}/${projectCode}/share/${memberNo}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      toast(t("share.copied"), "copied");
    } catch {
      toast(t("share.copyFailed"), "error");
    }
  }
  async function share() {
    try {
      await navigator.share({ title: nickname || "Velvet", url: link });
    } catch (error) {
      console.info("share cancelled", error);
    }
  }
  return (
    <div className="share-panel">
      <QRCodeSVG value={link} size={200} role="img" aria-label={t("share.qrLabel")} title={t("share.qrLabel")} />
      <label className="field share-link">
        <span>{t("share.link")}</span>
        <input readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <div className="row">
        <button type="button" className="button button-primary" onClick={() => void copy()}>
          {t("share.copy")}
        </button>
        {canShare && (
          <button type="button" className="button" onClick={() => void share()}>
            {t("share.native")}
          </button>
        )}
      </div>
    </div>
  );
}
