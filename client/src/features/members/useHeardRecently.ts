import { useEffect, useState, useSyncExternalStore } from 'react';

/** How long a member stays listed first after their voice stops: a breath does not reshuffle. */
export const HEARD_ORDER_HOLD_MS = 2500;
/** How long a card keeps "Speaking" after the level drops: the gaps between words do not flicker. */
export const SPEAKING_HOLD_MS = 700;

/** Ids whose voice stopped less than `holdMs` ago; each leaves on its own timer. */
export class Lingering {
  private last: ReadonlySet<string> = new Set();
  private ids: ReadonlySet<string> = new Set();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly holdMs: number) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): ReadonlySet<string> => this.ids;

  /** The ids heard now: those that just stopped linger, those heard again stop lingering. */
  update(heard: ReadonlySet<string>): void {
    const next = new Set(this.ids);
    for (const id of this.last) {
      if (heard.has(id)) continue;
      next.add(id);
      clearTimeout(this.timers.get(id));
      this.timers.set(
        id,
        setTimeout(() => this.drop(id), this.holdMs),
      );
    }
    for (const id of heard) {
      next.delete(id);
      clearTimeout(this.timers.get(id));
      this.timers.delete(id);
    }
    this.last = heard;
    this.set(next);
  }

  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private drop(id: string): void {
    this.timers.delete(id);
    const next = new Set(this.ids);
    next.delete(id);
    this.set(next);
  }

  private set(next: ReadonlySet<string>): void {
    const same = next.size === this.ids.size && [...next].every((id) => this.ids.has(id));
    if (same) return;
    this.ids = next;
    for (const listener of this.listeners) listener();
  }
}

/**
 * The ids in `heard` now, plus those heard within the last `holdMs`: the list order follows a
 * talk spell rather than every pause between words. Only the order uses it; the card's Speaking
 * state follows the live level.
 */
export function useHeardRecently(
  heard: ReadonlySet<string>,
  holdMs = HEARD_ORDER_HOLD_MS,
): ReadonlySet<string> {
  const [lingering] = useState(() => new Lingering(holdMs));
  const recent = useSyncExternalStore(lingering.subscribe, lingering.snapshot);
  useEffect(() => lingering.update(heard), [lingering, heard]);
  useEffect(() => () => lingering.stop(), [lingering]);
  return recent.size === 0 ? heard : new Set([...heard, ...recent]);
}
