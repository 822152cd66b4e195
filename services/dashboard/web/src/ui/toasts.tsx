import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from "react";

type Tone = "success" | "error";
interface Toast {
  id: number;
  text: string;
  tone: Tone;
}
type Notify = (text: string, tone?: Tone) => void;

const ToastContext = createContext<Notify>(() => {});

/** Short notes about finished actions ("Key created"), read out by screen readers, gone after a few seconds. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const lastId = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const notify = useCallback<Notify>(
    (text, tone = "success") => {
      const id = ++lastId.current;
      // A handful at most: older ones make room rather than piling up over the page.
      setToasts((all) => [...all, { id, text, tone }].slice(-3));
      setTimeout(() => dismiss(id), tone === "error" ? 9_000 : 5_000);
    },
    [dismiss],
  );
  return (
    <ToastContext value={notify}>
      {children}
      {/* The live region exists before any toast, so screen readers announce each one. */}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.tone}`} data-testid="toast">
            <span>{t.text}</span>
            <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>×</button>
          </div>
        ))}
      </div>
    </ToastContext>
  );
}

/** `notify("Key created")`, or `notify("…", "error")` for a failure that has no form to show it. */
export const useToast = (): Notify => useContext(ToastContext);
