import { ReportItemButton } from "./report-item-dialog";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import type { GuestbookEntry, } from "../../../worker/contract/social";
import { useToast } from "../../components/toast";
import { LocalTime } from "../../i18n/use-format";
import * as social from "../../api/social-api";
import { errorText } from "../../lib/error-text";
import { Dialog, DialogClose, FormDialog } from "../../components/dialog";
import { Avatar } from "../../components/avatar";
import { PostingReminderSelf } from "../posting/posting-reminder";
import { readSession } from "../../lib/session-keys";
import { MutedHidden } from "../safety/muted-word-hidden";

/**
 * An entry's text, or the collapsed line when the server withheld it for one of the member's muted words; "Show
 * anyway" asks for that one entry (README Decisions "Muted words").
 */
function EntryMessage({ entry }: { entry: GuestbookEntry }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const [shown, setShown] = useState<string | null>(null);
  if (!entry.mutedWord || shown !== null) return <p className="entry-message">{shown ?? entry.message}</p>;
  async function show() {
    const body = await social.guestbookEntry(entry.idGuestbook);
    if (isOk(body)) setShown(body.info.message);
    else toast(errorText(t, body), "error");
  }
  return (
    <p className="entry-message">
      <MutedHidden onShow={show} />
    </p>
  );
}

/** Entries of my guestbook, each with reply (dialog), history (drawer) and delete. */
export function GuestbookEntries({ entries, onDeleted, empty }: { entries: GuestbookEntry[]; onDeleted: (id: number) => void; empty: string }) {
  if (entries.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <ul className="entries">
      {entries.map((entry) => (
        <GuestbookEntryCard key={entry.idGuestbook} entry={entry} onDeleted={() => onDeleted(entry.idGuestbook)} />
      ))}
    </ul>
  );
}

function GuestbookEntryCard({ entry, onDeleted }: { entry: GuestbookEntry; onDeleted: () => void }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const name = entry.profile.nickname || entry.profile.simpleCode;

  async function remove() {
    const body = await social.deleteGuestbookEntry(entry.idGuestbook);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    toast(t("guestbook.deleted"), "delete");
    onDeleted();
  }

  return (
    <li className={`entry${entry.read ? "" : " entry-unread"}`}>
      <Avatar profile={entry.profile} size={44} />
      <div className="entry-body">
        <div className="entry-head">
          <span className="entry-name">{name}</span>
          <LocalTime className="entry-time" value={entry.timelog} />
          {!entry.read && <span className="unread-mark">{t("guestbook.unreadMark")}</span>}
        </div>
        <EntryMessage entry={entry} />
        <div className="entry-actions">
          <ReplyDialog memberNo={entry.profile.simpleCode} name={name} />
          <HistoryDrawer memberNo={entry.profile.simpleCode} name={name} />
          <button type="button" className="button button-danger" aria-label={t("guestbook.delete", { name })} onClick={() => void remove()}>
            {t("common:delete")}
          </button>
          <ReportItemButton kind="guestbook" itemId={entry.idGuestbook} memberNo={entry.profile.simpleCode} name={name} className="button" onReported={onDeleted} />
        </div>
      </div>
    </li>
  );
}

/** §2 reply dialog (§4 message dialog: compose, submit, done, clear and close). */
export function ReplyDialog({ memberNo, name }: { memberNo: string; name: string }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);

  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (!text.trim()) return toast(t("leave.empty"), "warning");
    setBusy(true);
    const body = await social.writeGuestbook(memberNo, text);
    setBusy(false);
    if (!isOk(body)) return toast(errorText(t, body), body.returnCode === "403201" ? "warning" : "error");
    setText("");
    setOpen(false);
    toast(t("guestbook.sent"), "success");
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="button" aria-label={t("guestbook.reply", { name })}>
          ↩ {t("guestbook.reply", { name })}
        </button>
      }
      title={t("guestbook.replyTitle", { name })}
      description={t("guestbook.replyTitle", { name })}
      descriptionClassName="visually-hidden"
      submitLabel={t("leave.send")}
      busy={busy}
      onSubmit={(event) => void send(event)}
    >
      <PostingReminderSelf projectCode={readSession()?.projectCode ?? "smp"} />
      <label className="field">
        <span>{t("leave.label")}</span>
        <textarea value={text} onChange={(event) => setText(event.target.value)} maxLength={2000} required />
      </label>
    </FormDialog>
  );
}

/** §2 guestbook history drawer: the conversation with one member across both guestbooks. */
export function HistoryDrawer({ memberNo, name }: { memberNo: string; name: string }) {
  const { t } = useTranslation("social");
  const [items, setItems] = useState<GuestbookEntry[] | null>(null);

  async function load(open: boolean) {
    if (!open) return;
    const body = await social.guestbookHistory(memberNo);
    setItems(isOk(body) ? body.info.items : []);
  }

  return (
    <Dialog
      className="drawer"
      onOpenChange={(open) => void load(open)}
      trigger={
        <button type="button" className="button" aria-label={t("guestbook.history", { name })}>
          ☰ {t("guestbook.history", { name })}
        </button>
      }
      title={t("guestbook.historyTitle", { name })}
      description={t("guestbook.historyTitle", { name })}
      descriptionClassName="visually-hidden"
    >
      {!items && <p className="muted">{t("common:loading")}</p>}
      {items?.length === 0 && <p className="empty-state">{t("guestbook.emptyHistory")}</p>}
      <ul className="entries">
        {items?.map((entry) => {
          const mine = entry.profile.simpleCode !== memberNo;
          return (
            <li key={entry.idGuestbook} className={`entry${mine ? " history-mine" : ""}`}>
              <Avatar profile={entry.profile} size={32} />
              <div className="entry-body">
                <div className="entry-head">
                  <span className="entry-name">{mine ? t("guestbook.to", { name }) : t("guestbook.from", { name })}</span>
                  <LocalTime className="entry-time" value={entry.timelog} />
                </div>
                <EntryMessage entry={entry} />
              </div>
            </li>
          );
        })}
      </ul>
      <DialogClose>{t("common:close")}</DialogClose>
    </Dialog>
  );
}
