import { AlertDialog, Dialog as RadixDialog } from "radix-ui";
import { type ComponentProps, createContext, type FormEvent, type ReactElement, type ReactNode, useContext, useState } from "react";
import { useTranslation } from "react-i18next";
import { useReturnFocus } from "./return-focus";

type Kind = "dialog" | "alert";
const KindContext = createContext<Kind>("dialog");

/**
 * The one modal of the app: overlay, a titled and described panel (focus trapped, Escape closes), an optional
 * opener, body and actions. `kind="alert"` is Radix's alertdialog: a click outside does not close it, for questions
 * the member must answer (a delete, a role change). `returnFocus` gives focus back to whatever opened a dialog that
 * was opened from state rather than from its `trigger` (see return-focus.ts).
 */
export function Dialog({
  kind = "dialog",
  open,
  onOpenChange,
  trigger,
  title,
  titleClassName = "dialog-title",
  description,
  descriptionClassName = "dialog-body",
  className = "dialog",
  returnFocus = false,
  closeLabel,
  actions,
  children,
}: {
  kind?: Kind;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The opener (a button); Radix wires its aria-expanded/aria-controls and gives it focus back on close. */
  trigger?: ReactElement;
  title: ReactNode;
  titleClassName?: string;
  /** Every dialog is described (screen readers read it on open); pass `descriptionClassName="visually-hidden"` when the title says it all. */
  description: ReactNode;
  descriptionClassName?: string;
  className?: string;
  returnFocus?: boolean;
  /** The accessible name of a "×" close button in the corner; none when omitted. */
  closeLabel?: string;
  /** Buttons in the footer row (use `DialogClose` / `DialogAction`); forms put their own row inside the form. */
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const focus = useReturnFocus();
  // An opener's dialog keeps its own open state, so that it too renders its panel only while open.
  const [openedByTrigger, setOpenedByTrigger] = useState(false);
  const isOpen = open ?? openedByTrigger;
  const P = kind === "alert" ? AlertDialog : RadixDialog;
  // A closed dialog renders no panel: Radix's closed Presence (portal, overlay, content) dispatches a synchronous
  // update from a layout effect on mount, and on a page with a few such dialogs (the shell's "More" menu is on every
  // page) that pulled hydration's first effects and a re-render into the task of its commit (README Decisions
  // "Lighter main pages"). No dialog animates its closing, so nothing is lost by unmounting at once.
  if (!isOpen && !trigger) return null;
  return (
    <KindContext.Provider value={kind}>
      <P.Root
        open={isOpen}
        onOpenChange={(next) => {
          setOpenedByTrigger(next);
          onOpenChange?.(next);
        }}
      >
        {trigger && <P.Trigger asChild>{trigger}</P.Trigger>}
        {isOpen && (
          <P.Portal>
            <P.Overlay className="dialog-overlay" />
            <P.Content className={className} {...(returnFocus ? focus : {})}>
              <P.Title className={titleClassName}>{title}</P.Title>
              <P.Description className={descriptionClassName}>{description}</P.Description>
              {children}
              {actions && <div className="dialog-actions">{actions}</div>}
              {closeLabel && (
                <DialogClose className="icon-button dialog-x" aria-label={closeLabel}>
                  ×
                </DialogClose>
              )}
            </P.Content>
          </P.Portal>
        )}
      </P.Root>
    </KindContext.Provider>
  );
}

type ButtonProps = ComponentProps<"button">;

/** A button that closes the dialog it is in (Cancel / Close); an alert dialog's is its Cancel. */
export function DialogClose({ className = "button", ...props }: ButtonProps) {
  const kind = useContext(KindContext);
  return kind === "alert" ? <AlertDialog.Cancel className={className} {...props} /> : <RadixDialog.Close className={className} {...props} />;
}

/** A button that does its `onClick` and then closes the dialog (call `event.preventDefault()` to keep it open). */
export function DialogAction({ className = "button button-primary", ...props }: ButtonProps) {
  const kind = useContext(KindContext);
  return kind === "alert" ? <AlertDialog.Action className={className} {...props} /> : <RadixDialog.Close className={className} {...props} />;
}

/**
 * A yes/no question as an alert dialog: Cancel and one confirm button that closes it. `danger` paints the confirm
 * red (deletes, sending without encryption).
 */
export function ConfirmDialog({
  confirmLabel,
  onConfirm,
  danger = false,
  cancelLabel,
  ...dialog
}: Omit<ComponentProps<typeof Dialog>, "kind" | "actions" | "children"> & {
  confirmLabel: ReactNode;
  onConfirm: () => void;
  danger?: boolean;
  cancelLabel?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      kind="alert"
      {...dialog}
      actions={
        <>
          <DialogClose>{cancelLabel ?? t("common:cancel")}</DialogClose>
          <DialogAction className={`button ${danger ? "button-danger" : "button-primary"}`} onClick={onConfirm}>
            {confirmLabel}
          </DialogAction>
        </>
      }
    />
  );
}

/**
 * A dialog holding one form: the fields (children), the refusal (`error`, announced), Cancel and a submit button that
 * waits while `busy`. The caller keeps the state (open, busy, error) and sends the request in `onSubmit`.
 */
export function FormDialog({
  submitLabel,
  submitClassName = "button button-primary",
  busy = false,
  error,
  onSubmit,
  children,
  ...dialog
}: Omit<ComponentProps<typeof Dialog>, "kind" | "actions"> & {
  submitLabel: ReactNode;
  submitClassName?: string;
  busy?: boolean;
  error?: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog {...dialog}>
      <form className="form" onSubmit={onSubmit}>
        {children}
        {error && (
          <p role="alert" className="field-error">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <DialogClose>{t("common:cancel")}</DialogClose>
          <button type="submit" className={submitClassName} disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
