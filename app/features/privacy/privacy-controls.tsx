import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { SUCCESS_CODE } from "../../../worker/contract/envelope";
import { Dialog, DialogClose } from "../../components/dialog";
import { useToast } from "../../components/toast";
import { lineBinding } from "../../api/line-api";
import * as privacy from "../../api/privacy-api";
import { errorText } from "../../lib/error-text";
import { clearSession, readSession } from "../../lib/session-keys";
import "./privacy.css";

/**
 * Settings → "Your data" (§7): download everything stored about you as JSON, or delete the
 * account after confirming with the password. Mounted by the Settings page.
 */
export function PrivacyControls({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("privacy");
  const toast = useToast();
  const navigate = useNavigate();
  const [exporting, setExporting] = useState(false);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState("");
  // An account made through LINE has no password: a fresh LINE sign-in confirms instead (README Decisions "LINE login").
  const [lineOnly, setLineOnly] = useState(false);

  async function openDelete(next: boolean) {
    setOpen(next);
    setPassword("");
    setError("");
    const session = readSession();
    if (!next || !session) return;
    const binding = await lineBinding(session.memberId);
    setLineOnly("info" in binding && !binding.info.hasPassword);
  }

  async function download() {
    const session = readSession();
    if (!session) return navigate(`/${projectCode}/login`);
    setExporting(true);
    const reply = await privacy.exportData(session.memberId);
    setExporting(false);
    if (reply.returnCode !== SUCCESS_CODE || !("info" in reply)) {
      toast(errorText(t, reply as { returnCode: string; returnMessage: string }), "error");
      return;
    }
    const blob = new Blob([JSON.stringify(reply.info, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = `velvet-${reply.info.projectCode.toLowerCase()}-${reply.info.memberNo}.json`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    toast(t("exportReady"), "success");
  }

  async function remove(event: React.FormEvent) {
    event.preventDefault();
    const session = readSession();
    if (!session) return navigate(`/${projectCode}/login`);
    if (!password && !lineOnly) {
      setError(t("passwordRequired"));
      return;
    }
    setDeleting(true);
    const reply = await privacy.deleteAccount(session.memberId, password);
    setDeleting(false);
    if (reply.returnCode !== SUCCESS_CODE) {
      setError(errorText(t, reply as { returnCode: string; returnMessage: string }));
      return;
    }
    clearSession();
    setOpen(false);
    navigate(`/${projectCode}/login`, { replace: true, state: { accountDeleted: true } });
  }

  return (
    <section className="privacy-controls" aria-labelledby="privacy-title">
      <h2 id="privacy-title" className="privacy-title">{t("title")}</h2>
      <p className="privacy-lead">{t("lead")}</p>
      <div className="privacy-actions">
        <button type="button" className="button" onClick={download} disabled={exporting}>
          {exporting ? t("exporting") : t("export")}
        </button>
        <Dialog
          kind="alert"
          open={open}
          onOpenChange={(next) => void openDelete(next)}
          trigger={<button type="button" className="button button-danger">{t("delete")}</button>}
          title={t("confirmTitle")}
          description={t("confirmBody")}
        >
          <form onSubmit={remove} className="privacy-form" noValidate>
            {lineOnly ? (
              <p className="muted">{t("lineOnly")}</p>
            ) : (
              <label className={`field${error ? " field-invalid" : ""}`}>
                <span>{t("password")}</span>
                <input
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={Boolean(error)}
                  aria-describedby={error ? "privacy-error" : undefined}
                />
              </label>
            )}
            {error ? (
              <p id="privacy-error" role="alert" className="privacy-error">
                {error}
              </p>
            ) : null}
            <div className="dialog-actions">
              <DialogClose>{t("cancel")}</DialogClose>
              <button type="submit" className="button button-danger" disabled={deleting}>
                {deleting ? t("deleting") : t("confirmDelete")}
              </button>
            </div>
          </form>
        </Dialog>
      </div>
    </section>
  );
}
