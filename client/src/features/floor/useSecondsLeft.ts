import { useCallback, useSyncExternalStore } from 'react';

/** How often the countdown looks at the clock: a new second shows within a quarter of one. */
const TICK_MS = 250;

const noop = () => undefined;

/**
 * Whole seconds left until `until` (epoch milliseconds on this tab's clock), never below 0;
 * null without an end. Re-renders only when the number changes.
 */
export function useSecondsLeft(until: number | null): number | null {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (until === null) return noop;
      const timer = setInterval(onChange, TICK_MS);
      return () => clearInterval(timer);
    },
    [until],
  );
  return useSyncExternalStore(subscribe, () =>
    until === null ? null : Math.max(0, Math.ceil((until - Date.now()) / 1000)),
  );
}
