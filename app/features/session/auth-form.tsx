import { type ReactNode, useState } from "react";
import { MessageDialog } from "../../components/alert-dialog";

/**
 * The form shared by login, registration and password reset: `method="post"` so a submit before hydration never puts a
 * password in the URL (the route's action shows the page again), the submit button disabled while the request runs,
 * and what `onSubmit` returns (a refusal from the envelope, or a notice) shown in one message dialog.
 */
export function AuthForm({
  submitLabel,
  messageTitle,
  onSubmit,
  children,
}: {
  submitLabel: string;
  messageTitle: string;
  /** Sends the form; resolves to a message for the member, or nothing when the page moves on. */
  onSubmit: (form: FormData) => Promise<string | undefined>;
  /** The fields (`AuthField` and any page-specific ones). */
  children: ReactNode;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      const next = await onSubmit(form);
      if (next !== undefined) setMessage(next);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form method="post" onSubmit={submit} className="form">
        {children}
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
      </form>
      <MessageDialog open={message !== null} title={messageTitle} message={message ?? ""} onClose={() => setMessage(null)} />
    </>
  );
}

type FieldKind = "email" | "current-password" | "new-password";

/** One labelled input of an auth form; `kind` sets the input type and the autocomplete password managers rely on. */
export function AuthField({ label, name, kind, minLength }: { label: string; name: string; kind: FieldKind; minLength?: number }) {
  return (
    <label className="field">
      <span>{label}</span>
      <input name={name} type={kind === "email" ? "email" : "password"} autoComplete={kind} minLength={minLength} required />
    </label>
  );
}

/** The text of a form field (FormData gives null for a missing one). */
export function field(form: FormData, name: string): string {
  return String(form.get(name) ?? "");
}
