import { useCallback, useEffect, useState } from 'react';
import { Ear, Moon, Radio } from 'lucide-react';
import { Button } from '../../ui/Button';
import { idleWarningStore, useIdleWarning } from './idle-warning';
import { usePresence } from './usePresence';

/** The notice's texts (decision 048; the spec has only the top bar's "Idle - Saving Minutes"). */
export const IDLE_NOTICE_TEXTS = {
  warning: (seconds: number) => `You'll stop listening in ${seconds} s to save minutes`,
  keepListening: 'Keep listening',
  stopped: 'You stopped listening to save minutes — tap to listen again',
  resumed: 'Listening again',
  kept: 'Still listening',
} as const;

/** How long "Listening again" / "Still listening" stay after the tap that ended a notice. */
export const IDLE_NOTICE_CONFIRM_MS = 2000;

type Shown = 'warning' | 'stopped' | 'resumed' | 'kept' | null;

/** Drains the bar over the time left (not at all when the user prefers reduced motion). */
function DrainingBar({ msLeft }: { msLeft: number }) {
  const drain = useCallback(
    (bar: HTMLSpanElement | null) => {
      if (!bar || typeof bar.animate !== 'function') return;
      if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
      const animation = bar.animate([{ transform: 'scaleX(1)' }, { transform: 'scaleX(0)' }], {
        duration: msLeft,
        fill: 'forwards',
      });
      return () => animation.cancel();
    },
    [msLeft],
  );
  return (
    <span
      aria-hidden="true"
      ref={drain}
      className="absolute inset-x-0 bottom-0 h-1 origin-left bg-warning"
    />
  );
}

/**
 * Idling made visible (spec §4 "Idle detection" keeps its timings): shortly before the tab stops
 * listening, "You'll stop listening in 10 s..." with Keep listening; once it has, "You stopped
 * listening... tap to listen again". Any tap, click or key anywhere marks the user active (spec §4),
 * so the buttons only give that input a target and a name. After the tap the notice stays a moment
 * as a confirmation, which also keeps the tap from landing on whatever lies underneath.
 */
export function IdleNotice() {
  const { online, idle } = usePresence();
  const warning = useIdleWarning();
  const live: Shown = online && idle ? 'stopped' : online && warning ? 'warning' : null;
  const [previous, setPrevious] = useState<Shown>(live);
  const [confirm, setConfirm] = useState<'resumed' | 'kept' | null>(null);
  if (live !== previous) {
    setPrevious(live);
    setConfirm(
      live === null && online
        ? previous === 'stopped'
          ? 'resumed'
          : previous === 'warning'
            ? 'kept'
            : null
        : null,
    );
  }
  useEffect(() => {
    if (!confirm) return;
    const timer = setTimeout(() => setConfirm(null), IDLE_NOTICE_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [confirm]);

  const shown: Shown = live ?? confirm;
  return (
    // One live region that stays mounted, so each notice is announced as it appears.
    <div
      role="status"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[90] flex justify-center px-4 pb-[max(1rem,env(safe-area-inset-bottom))]"
    >
      {shown === 'warning' && warning ? (
        <div className="pointer-events-auto relative grid w-full max-w-sm gap-3 overflow-hidden rounded-2xl border border-warning/50 bg-popover p-4 text-popover-foreground shadow-lg">
          {/* The seconds left when it appeared: one fixed sentence, read once by screen readers. */}
          <p className="flex items-start gap-2 text-sm font-medium">
            <Moon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning-text" />
            {IDLE_NOTICE_TEXTS.warning(Math.max(1, Math.round(warning.msLeft / 1000)))}
          </p>
          <Button size="sm" className="justify-self-end" onClick={idleWarningStore.markActive}>
            <Ear aria-hidden="true" />
            {IDLE_NOTICE_TEXTS.keepListening}
          </Button>
          <DrainingBar key={warning.idleAt} msLeft={warning.msLeft} />
        </div>
      ) : shown === 'stopped' ? (
        <Button
          size="lg"
          onClick={idleWarningStore.markActive}
          className="pointer-events-auto h-auto w-full max-w-sm justify-start gap-3 rounded-2xl px-4 py-3 text-left text-sm whitespace-normal shadow-lg"
        >
          <Moon aria-hidden="true" />
          {IDLE_NOTICE_TEXTS.stopped}
        </Button>
      ) : shown ? (
        <p className="pointer-events-auto flex w-full max-w-sm items-center gap-2 rounded-2xl border bg-popover px-4 py-3 text-sm font-medium text-popover-foreground shadow-lg">
          <Radio aria-hidden="true" className="size-4 text-success-text" />
          {shown === 'resumed' ? IDLE_NOTICE_TEXTS.resumed : IDLE_NOTICE_TEXTS.kept}
        </p>
      ) : null}
    </div>
  );
}
