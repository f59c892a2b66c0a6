import { createContext, useCallback, useContext, useState } from "react";
import { lateModule, useLateModule } from "../lib/late-module";

/** §9 toast durations. */
export const TOAST_DURATION = { error: 9000, warning: 9000, delete: 3000, copied: 1000, banner: 5000, success: 5000, long: 90000 } as const;
export type ToastKind = keyof typeof TOAST_DURATION;

export type ToastItem = { id: number; kind: ToastKind; message: string; duration: number };
type ShowToast = (message: string, kind?: ToastKind, duration?: number) => void;

const ToastContext = createContext<ShowToast>(() => {});

// Radix's toast code arrives with the first toast or once the page has settled (`preloadToasts`), as dialogs do.
const toastList = lateModule(() => import("./toast-list"));

/** Fetches the toast code once the page has settled, so that the first toast shows at once. */
export const preloadToasts = toastList.preload;

export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const show = useCallback<ShowToast>((message, kind = "success", duration) => {
    setToasts((list) => [...list, { id: Date.now() + Math.random(), kind, message, duration: duration ?? TOAST_DURATION[kind] }]);
  }, []);
  const closed = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);
  // Could not fetch the toast code (offline): these toasts are dropped; the next one tries again.
  const list = useLateModule(toastList, toasts.length > 0, () => setToasts([]));
  return (
    <ToastContext.Provider value={show}>
      {children}
      {toasts.length > 0 && list && <list.ToastList toasts={toasts} onClosed={closed} />}
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
