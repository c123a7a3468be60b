import { useSyncExternalStore } from 'react';

/** The warning shortly before idling: when it starts, and how long that was from the warning. */
export type IdleWarning = { idleAt: number; msLeft: number };

/**
 * The idle detector's warning while it holds, else null, and the way back to active for the
 * notice's buttons. A store of its own beside the presence store: the warning changes nothing the
 * server or the voice room see, only what the page shows.
 */
export class IdleWarningStore {
  private warning: IdleWarning | null = null;
  private activity: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  get = (): IdleWarning | null => this.warning;

  /** The detector's report: idling starts at `idleAt` (ms since the epoch), or no warning. */
  set = (idleAt: number | null): void => {
    if (idleAt === (this.warning?.idleAt ?? null)) return;
    this.warning = idleAt === null ? null : { idleAt, msLeft: Math.max(0, idleAt - this.now()) };
    for (const listener of this.listeners) listener();
  };

  /** The running idle watch registers how input reaches it; null when it stops. */
  onActivity(report: (() => void) | null): void {
    this.activity = report;
  }

  /** Keep listening / Listen again: counts as input, like any tap or key (spec §4). */
  markActive = (): void => {
    this.activity?.();
  };

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** The tab's idle warning, fed by the presence runtime's idle watch. */
export const idleWarningStore = new IdleWarningStore();

/** The warning before idling while it holds, else null. */
export function useIdleWarning(store: IdleWarningStore = idleWarningStore): IdleWarning | null {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
