import { Toast as RadixToast } from "radix-ui";
import { createContext, useCallback, useContext, useState } from "react";

/** §9 toast durations. */
export const TOAST_DURATION = { error: 9000, warning: 9000, delete: 3000, copied: 1000, banner: 5000, success: 5000, long: 90000 } as const;
export type ToastKind = keyof typeof TOAST_DURATION;

type ToastItem = { id: number; kind: ToastKind; message: string; duration: number };
type ShowToast = (message: string, kind?: ToastKind, duration?: number) => void;

const ToastContext = createContext<ShowToast>(() => {});

export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const show = useCallback<ShowToast>((message, kind = "success", duration) => {
    setToasts((list) => [...list, { id: Date.now() + Math.random(), kind, message, duration: duration ?? TOAST_DURATION[kind] }]);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      <RadixToast.Provider swipeDirection="up">
        {children}
        {toasts.map((toast) => (
          <RadixToast.Root
            key={toast.id}
            className={`toast toast-${toast.kind}`}
            duration={toast.duration}
            type={toast.kind === "error" || toast.kind === "warning" ? "foreground" : "background"}
            onOpenChange={(open) => !open && setToasts((list) => list.filter((t) => t.id !== toast.id))}
          >
            <RadixToast.Description>{toast.message}</RadixToast.Description>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className="toast-viewport" />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
