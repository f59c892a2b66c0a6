import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ALBUM_KEY_MIN_LENGTH, } from "../../../worker/contract/albums.constants";
import type { Album } from "../../../worker/contract/albums";
import { ConfirmDialog, Dialog, FormDialog } from "../../components/dialog";
import * as albums from "../../api/albums-api";
import { errorText } from "../../lib/error-text";

/** §2 albums: create (title, secret key). */
export function CreateAlbumDialog({ onCreated }: { onCreated: (album: Album) => void }) {
  const { t } = useTranslation("albums");
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const body = await albums.createAlbum(String(form.get("title") ?? ""), String(form.get("secretKey") ?? ""));
    setBusy(false);
    if ("info" in body) {
      setOpen(false);
      onCreated(body.info);
    } else setError(errorText(t, body));
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => { setOpen(next); setError(null); }}
      trigger={<button type="button" className="button button-primary">{t("create.open")}</button>}
      title={t("create.title")}
      description={t("create.hint", { min: ALBUM_KEY_MIN_LENGTH })}
      descriptionClassName="muted"
      submitLabel={t("create.submit")}
      busy={busy}
      error={error}
      onSubmit={submit}
    >
      <label className="field">
        <span>{t("create.albumTitle")}</span>
        <input name="title" required maxLength={80} />
      </label>
      <label className="field">
        <span>{t("secretKey")}</span>
        <input name="secretKey" type="password" minLength={ALBUM_KEY_MIN_LENGTH} maxLength={64} autoComplete="new-password" />
      </label>
    </FormDialog>
  );
}

/** §2: opening asks for the secret key; it may be skipped. */
export function OpenAlbumDialog({ title, locked, onOpen }: { title: string; locked: boolean; onOpen: (secretKey: string) => void }) {
  const { t } = useTranslation("albums");
  const [key, setKey] = useState("");
  if (!locked) {
    return (
      <button type="button" className="button" aria-label={t("openNamed", { title })} onClick={() => onOpen("")}>
        {t("open")}
      </button>
    );
  }
  return (
    <Dialog
      trigger={<button type="button" className="button" aria-label={t("openNamed", { title })}>{t("open")}</button>}
      title={title}
      description={t("askKey")}
      descriptionClassName="muted"
    >
      <form className="form" onSubmit={(e) => { e.preventDefault(); onOpen(key); }}>
        <label className="field">
          <span>{t("secretKey")}</span>
          <input type="password" value={key} maxLength={64} autoComplete="off" onChange={(e) => setKey(e.target.value)} />
        </label>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => onOpen("")}>{t("skip")}</button>
          <button type="submit" className="button button-primary">{t("continue")}</button>
        </div>
      </form>
    </Dialog>
  );
}

/** Two-step delete for albums and photos. */
export function ConfirmDelete({ label, question, onConfirm }: { label: string; question: string; onConfirm: () => void }) {
  const { t } = useTranslation("albums");
  return (
    <ConfirmDialog
      trigger={<button type="button" className="button button-danger" aria-label={label}>{t("common:delete")}</button>}
      title={label}
      description={question}
      confirmLabel={t("common:delete")}
      onConfirm={onConfirm}
      danger
    />
  );
}
