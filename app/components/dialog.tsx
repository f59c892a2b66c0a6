import { type ComponentProps, cloneElement, type FormEvent, type MouseEvent, type ReactElement, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { lateModule, useLateModule } from "../lib/late-module";
import type { DialogKind } from "./dialog-panel";

/**
 * Radix and its dialog stack (~26 KB of script) arrive with the first dialog that opens, or once the page has
 * settled (`preloadDialogs`), never with a page's first load (README Decisions "Dialogs and toasts load after the
 * first paint"): no dialog is open when a page first paints.
 */
const dialogPanel = lateModule(() => import("./dialog-panel"));

/** Fetches the dialog code once the page has settled, so that the first dialog opens at once. */
export const preloadDialogs = dialogPanel.preload;

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
  kind?: DialogKind;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The opener (a button): it says it opens a dialog and whether it is open, and gets focus back on close. */
  trigger?: ReactElement<ComponentProps<"button">>;
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
  // An opener's dialog keeps its own open state unless the caller holds it.
  const [openedByTrigger, setOpenedByTrigger] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const isOpen = open ?? openedByTrigger;
  const change = (next: boolean) => {
    setOpenedByTrigger(next);
    onOpenChange?.(next);
  };
  // Could not fetch the panel (offline): the dialog closes again, and the next tap tries once more.
  const panel = useLateModule(dialogPanel, isOpen, () => change(false));
  // A closed dialog renders no panel: Radix's closed Presence dispatches a synchronous update from a layout effect
  // on mount, which pulled hydration's first effects into the task of its commit. No dialog animates its closing.
  return (
    <>
      {trigger &&
        cloneElement(trigger, {
          ref: opener,
          "aria-haspopup": "dialog",
          "aria-expanded": isOpen,
          onClick: (event: MouseEvent<HTMLButtonElement>) => {
            trigger.props.onClick?.(event);
            if (!event.defaultPrevented) change(!isOpen);
          },
        })}
      {isOpen && panel && (
        <panel.DialogPanel
          kind={kind}
          onOpenChange={change}
          title={title}
          titleClassName={titleClassName}
          description={description}
          descriptionClassName={descriptionClassName}
          className={className}
          opener={trigger ? opener : undefined}
          returnFocus={returnFocus}
          closeLabel={closeLabel}
          actions={actions}
        >
          {children}
        </panel.DialogPanel>
      )}
    </>
  );
}

type ButtonProps = ComponentProps<"button">;

// DialogClose and DialogAction render only inside an open dialog's panel, so its module has arrived.

/** A button that closes the dialog it is in (Cancel / Close); an alert dialog's is its Cancel. */
export function DialogClose({ className = "button", ...props }: ButtonProps) {
  const Close = dialogPanel.current()?.PanelClose;
  return Close ? <Close className={className} {...props} /> : null;
}

/** A button that does its `onClick` and then closes the dialog (call `event.preventDefault()` to keep it open). */
export function DialogAction({ className = "button button-primary", ...props }: ButtonProps) {
  const Action = dialogPanel.current()?.PanelAction;
  return Action ? <Action className={className} {...props} /> : null;
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
