import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import type { ReportKind } from "../../../worker/contract/social";
import { FormDialog } from "../../components/dialog";
import { useToast } from "../../components/toast";
import * as social from "../../api/social-api";
import { errorText } from "../../lib/error-text";

/**
 * "Report" on one item (a chat message or note, or a guestbook entry): the server hides that item for the reporter at
 * once and for nobody else (README Decisions "Block evasion and per-item reports"); `onReported` takes it off the
 * page. The dialog mounts only while open: a room renders many of these.
 */
export function ReportItemButton({
  kind,
  itemId,
  memberNo,
  name,
  className = "chat-action link-button",
  onReported,
}: {
  kind: ReportKind;
  itemId: number;
  memberNo: string;
  name: string;
  className?: string;
  onReported: () => void;
}) {
  const { t } = useTranslation("reporting");
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);

  async function send(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = await social.report({ targetMemberNo: memberNo, reason, kind, itemId });
    setBusy(false);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setOpen(false);
    toast(t("item.hidden"), "success");
    onReported();
  }

  return (
    <>
      <button type="button" className={className} aria-label={t("item.reportOf", { name })} onClick={() => setOpen(true)}>
        {t("item.report")}
      </button>
      {open && (
        <FormDialog open onOpenChange={setOpen} title={t(kind === "guestbook" ? "item.titleGuestbook" : "item.titleChat", { name })} description={t("item.explain")} submitLabel={t("item.send")} submitClassName="button button-danger" busy={busy} onSubmit={(event) => void send(event)}>
          <label className="field">
            <span>{t("item.reason")}</span>
            <textarea value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} />
          </label>
        </FormDialog>
      )}
    </>
  );
}
