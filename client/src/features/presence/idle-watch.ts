import { IdleDetector } from './idle-detector';
import type { IdleWarningStore } from './idle-warning';
import { isFullDuplexConnected } from './online-state';
import type { PresenceStore } from './presence-store';
import { listen, type PageEvents } from './page-events';

/** Spec §4: mouse, key or touch input counts as activity. */
const INPUT_EVENTS = ['mousemove', 'mousedown', 'wheel', 'keydown', 'touchstart'] as const;

/**
 * Spec §4 "Idle detection", wired to the page: runs an `IdleDetector` only while full-duplex is
 * connected and no call is active, reports idle changes to the presence store, and the warning
 * before idling to `warning` (whose `markActive` then counts as input). Returns stop.
 */
export function watchIdle(
  store: PresenceStore,
  timeoutMs: number,
  page: PageEvents,
  warning?: IdleWarningStore,
): () => void {
  let running: (() => void) | null = null;

  const start = () => {
    const detector = new IdleDetector(timeoutMs, (idle) => store.dispatch({ type: 'idle', idle }), {
      onWarning: warning?.set,
    });
    const onInput = () => detector.input();
    warning?.onActivity(onInput);
    const onVisibility = () => detector.visibility(page.document.visibilityState === 'hidden');
    onVisibility();
    const offs = [
      ...INPUT_EVENTS.map((type) =>
        listen(page.window, type, onInput, { capture: true, passive: true }),
      ),
      listen(page.document, 'visibilitychange', onVisibility),
    ];
    return () => {
      detector.stop();
      for (const off of offs) off();
      warning?.set(null);
      warning?.onActivity(null);
      // The next run starts active; a stale "idle" must not outlive this one.
      store.dispatch({ type: 'idle', idle: false });
    };
  };

  const sync = () => {
    const wanted = isFullDuplexConnected(store.state) && !store.state.callActive;
    if (wanted && !running) running = start();
    else if (!wanted && running) {
      const stop = running;
      running = null;
      stop();
    }
  };

  const unsubscribe = store.subscribe(sync);
  sync();
  return () => {
    unsubscribe();
    running?.();
    running = null;
  };
}
