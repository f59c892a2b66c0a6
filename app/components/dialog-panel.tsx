import { AlertDialog, Dialog as RadixDialog } from "radix-ui";
import { type ComponentProps, createContext, type ReactNode, type RefObject, useContext } from "react";
import { useReturnFocus } from "./return-focus";

/**
 * The open dialog itself, on Radix: loaded only when a dialog first opens, or once the page has settled (dialog.tsx),
 * so the dialog stack (focus trap, scroll lock, portal, aria-hidden) is not part of any page's first load.
 */

export type DialogKind = "dialog" | "alert";
const KindContext = createContext<DialogKind>("dialog");

export type DialogPanelProps = {
  kind: DialogKind;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  titleClassName: string;
  description: ReactNode;
  descriptionClassName: string;
  className: string;
  /** A dialog with an opener gives it focus back on close, as Radix's own trigger would. */
  opener?: RefObject<HTMLElement | null>;
  /** Without an opener: give focus back to whatever had it when the dialog opened (see return-focus.ts). */
  returnFocus: boolean;
  closeLabel?: string;
  actions?: ReactNode;
  children?: ReactNode;
};

export function DialogPanel(props: DialogPanelProps) {
  const { kind, onOpenChange, title, titleClassName, description, descriptionClassName, className, opener, returnFocus, closeLabel, actions, children } = props;
  const focus = useReturnFocus(opener);
  const P = kind === "alert" ? AlertDialog : RadixDialog;
  return (
    <KindContext.Provider value={kind}>
      <P.Root open onOpenChange={onOpenChange}>
        <P.Portal>
          <P.Overlay className="dialog-overlay" />
          <P.Content className={className} {...(opener || returnFocus ? focus : {})}>
            <P.Title className={titleClassName}>{title}</P.Title>
            <P.Description className={descriptionClassName}>{description}</P.Description>
            {children}
            {actions && <div className="dialog-actions">{actions}</div>}
            {closeLabel && (
              <PanelClose className="icon-button dialog-x" aria-label={closeLabel}>
                ×
              </PanelClose>
            )}
          </P.Content>
        </P.Portal>
      </P.Root>
    </KindContext.Provider>
  );
}

type ButtonProps = ComponentProps<"button">;

/** dialog.tsx's DialogClose: an alert dialog's is its Cancel (which Radix focuses on open). */
export function PanelClose(props: ButtonProps) {
  const kind = useContext(KindContext);
  return kind === "alert" ? <AlertDialog.Cancel {...props} /> : <RadixDialog.Close {...props} />;
}

/** dialog.tsx's DialogAction. */
export function PanelAction(props: ButtonProps) {
  const kind = useContext(KindContext);
  return kind === "alert" ? <AlertDialog.Action {...props} /> : <RadixDialog.Close {...props} />;
}
