import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';

/** Spec §9: one toast visible; kept 1,000,000 ms after dismissal; shown 5000 ms by default. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'destructive';

export type ToastOptions = {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** A `<ToastAction altText=...>` rendered next to the text. */
  action?: ReactElement;
  /** Milliseconds before it closes itself; defaults to the Toaster's 5000. */
  duration?: number;
};

export type ToastItem = ToastOptions & { id: string; open: boolean };

export type ToastHandle = {
  id: string;
  dismiss: () => void;
  update: (options: ToastOptions) => void;
};

let toasts: readonly ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: readonly ToastItem[]): void {
  const kept = new Set(next.map((item) => item.id));
  for (const [id, timer] of removalTimers) {
    if (!kept.has(id)) {
      clearTimeout(timer);
      removalTimers.delete(id);
    }
  }
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    setToasts(toasts.filter((item) => item.id !== id));
  }, TOAST_REMOVE_DELAY_MS);
  removalTimers.set(id, timer);
}

/** Closes one toast, or every toast when no id is given. */
export function dismissToast(id?: string): void {
  const closing = toasts.filter((item) => id === undefined || item.id === id);
  for (const item of closing) scheduleRemoval(item.id);
  setToasts(
    toasts.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item)),
  );
}

/** Shows a toast; the newest replaces any other so only TOAST_LIMIT are ever visible. */
export function toast(options: ToastOptions): ToastHandle {
  nextId += 1;
  const id = `toast-${nextId}`;
  setToasts([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (update) =>
      setToasts(toasts.map((item) => (item.id === id ? { ...item, ...update } : item))),
  };
}

/** Forgets every toast at once (tests, sign-out). */
export function clearToasts(): void {
  setToasts([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): readonly ToastItem[] {
  return toasts;
}

/** The toasts to render, newest first. */
export function useToasts(): readonly ToastItem[] {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
