import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Mission, Task } from "../../../worker/contract/tasks";
import { Dialog, DialogClose, FormDialog } from "../../components/dialog";
import * as tasks from "../../api/tasks-api";
import { errorText } from "../../lib/error-text";

/** §2 create-task dialog (subject, description). */
export function CreateTaskDialog({ onCreated }: { onCreated: (task: Task) => void }) {
  const { t } = useTranslation("tasks");
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const body = await tasks.createTask(String(form.get("subject") ?? ""), String(form.get("description") ?? ""));
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
      description={t("create.hint")}
      descriptionClassName="muted"
      submitLabel={t("create.submit")}
      busy={busy}
      error={error}
      onSubmit={submit}
    >
      <label className="field">
        <span>{t("create.subject")}</span>
        <input name="subject" required maxLength={120} />
      </label>
      <label className="field">
        <span>{t("create.description")}</span>
        <textarea name="description" required rows={6} maxLength={4000} />
      </label>
    </FormDialog>
  );
}

/** §2 take-up dialog: confirming creates the mission and unlocks the full description. */
export function TakeUpDialog({ task, projectCode, onTaken }: { task: Task; projectCode: string; onTaken: () => void }) {
  const { t } = useTranslation("tasks");
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [mission, setMission] = useState<Mission | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function takeUp() {
    setBusy(true);
    setError(null);
    const body = await tasks.takeUp(task.idTask);
    setBusy(false);
    if ("info" in body) setMission(body.info);
    else setError(errorText(t, body));
  }

  return (
    <>
      {/* Once taken up, the card's action is the mission at once, not "Take up" again until a reload. */}
      {mission && <Link className="button" to={`/${projectCode}/mission/${mission.idMission}`}>{t("openMission")}</Link>}
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next && mission) onTaken();
        }}
        trigger={
          mission ? undefined : (
            <button type="button" className="button button-primary" aria-label={t("takeUp.openFor", { subject: task.subject })}>
              {t("takeUp.open")}
            </button>
          )
        }
        title={task.subject}
        description={mission ? mission.taskDescription : task.description}
        descriptionClassName="mission-text"
      >
        {!mission && task.descriptionLocked && <p className="muted">{t("takeUp.locked")}</p>}
        {mission && <p role="status" className="task-banner">{t("takeUp.done")}</p>}
        {error && <p role="alert" className="field-error">{error}</p>}
        <div className="dialog-actions">
          {mission ? (
            <Link className="button button-primary" to={`/${projectCode}/mission/${mission.idMission}`}>{t("takeUp.toMission")}</Link>
          ) : (
            <>
              <DialogClose>{t("common:cancel")}</DialogClose>
              <button type="button" className="button button-primary" onClick={() => void takeUp()} disabled={busy}>
                {t("takeUp.confirm")}
              </button>
            </>
          )}
        </div>
      </Dialog>
    </>
  );
}
