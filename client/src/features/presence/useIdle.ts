import { useEffect, useState } from 'react';
import { DEFAULT_IDLE_TIMEOUT_MS, IdleDetector } from './idle-detector';

/** Spec §4: mouse, key or touch input counts as activity. */
const INPUT_EVENTS = ['mousemove', 'mousedown', 'wheel', 'keydown', 'touchstart'] as const;

/**
 * Whether the user is idle: no input for `timeoutMs`, or the page hidden. Only runs while `enabled`
 * (online in a channel with no call); disabled it reports active.
 */
export function useIdle(enabled: boolean, timeoutMs: number = DEFAULT_IDLE_TIMEOUT_MS): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const detector = new IdleDetector(timeoutMs, setIdle);
    const onInput = () => detector.input();
    const onVisibility = () => detector.visibility(document.visibilityState === 'hidden');
    onVisibility();
    for (const type of INPUT_EVENTS)
      window.addEventListener(type, onInput, { capture: true, passive: true });
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      detector.stop();
      for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, { capture: true });
      document.removeEventListener('visibilitychange', onVisibility);
      // The next run starts active; a stale "idle" must not outlive this one.
      setIdle(false);
    };
  }, [enabled, timeoutMs]);
  return enabled && idle;
}
