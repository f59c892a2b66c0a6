import { useRef } from "react";

/**
 * Radix gives focus back on close only to a `Dialog.Trigger`. Dialogs opened from state (a button elsewhere,
 * several openers, a query parameter) spread these handlers on their `Content`: the element that had focus
 * when the dialog opened gets it back when it closes (keyboard users stay where they were).
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      // Radix calls this before moving focus into the dialog: the active element is still the opener.
      opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
