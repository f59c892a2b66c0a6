import { Toast as RadixToast } from "radix-ui";
import type { ToastItem } from "./toast";

/**
 * The toasts on screen, on Radix: loaded with the first toast, or once the page has settled (toast.tsx), so Radix's
 * toast code is not part of any page's first load.
 */
export function ToastList({ toasts, onClosed }: { toasts: readonly ToastItem[]; onClosed: (id: number) => void }) {
  return (
    <RadixToast.Provider swipeDirection="up">
      {toasts.map((toast) => (
        <RadixToast.Root
          key={toast.id}
          className={`toast toast-${toast.kind}`}
          duration={toast.duration}
          type={toast.kind === "error" || toast.kind === "warning" ? "foreground" : "background"}
          onOpenChange={(open) => !open && onClosed(toast.id)}
        >
          <RadixToast.Description>{toast.message}</RadixToast.Description>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toast-viewport" />
    </RadixToast.Provider>
  );
}
