import { type RefObject, useRef } from "react";

/**
 * Radix gives focus back on close only to a `Dialog.Trigger`, which Velvet's dialogs do not use (dialog.tsx renders
 * its own opener, so that Radix loads only when a dialog opens). These handlers, spread on the `Content`, give focus
 * back to the opener when there is one, else to the element that had focus when the dialog opened (a button
 * elsewhere, one of several openers): keyboard users stay where they were.
 */
export function useReturnFocus(opener?: RefObject<HTMLElement | null>) {
  const hadFocus = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      // Radix calls this before moving focus into the dialog: the active element is still the opener.
      hadFocus.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = opener?.current?.isConnected ? opener.current : hadFocus.current;
      hadFocus.current = null;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
