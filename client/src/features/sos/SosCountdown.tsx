import { AlertDialog } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { SOS_COUNTDOWN_MS } from '../../../../protocol/sos';
import { Spinner } from '../../ui/Spinner';
import type { SosTarget } from './sos-target';
import { SOS_TEXTS } from './sos-texts';

export type SosCountdownProps = {
  target: SosTarget;
  /** Epoch ms when the SOS is sent; null once it is on its way. */
  endsAt: number | null;
  onCancel: () => void;
};

/** Whole seconds left, counting 5, 4, 3, 2, 1. */
function secondsLeft(endsAt: number): number {
  return Math.max(1, Math.ceil((endsAt - Date.now()) / 1000));
}

/**
 * The 5-second countdown after the hold (decision 050): full screen, a big focused Cancel, Escape
 * cancels too. Nothing has been sent while it shows.
 */
export function SosCountdown({ target, endsAt, onCancel }: SosCountdownProps) {
  const [left, setLeft] = useState(() => (endsAt === null ? 0 : secondsLeft(endsAt)));
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (endsAt === null) return;
    const tick = () => setLeft(secondsLeft(endsAt));
    tick();
    const interval = setInterval(tick, 200);
    return () => clearInterval(interval);
  }, [endsAt]);
  const sending = endsAt === null;
  const title = sending
    ? SOS_TEXTS.sending
    : SOS_TEXTS.countdown(target.name, Math.min(left, SOS_COUNTDOWN_MS / 1000));

  return (
    <AlertDialog.Root open>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[70] bg-destructive" />
        <AlertDialog.Content
          data-testid="sos-countdown"
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            onCancel();
          }}
          // A toast opened meanwhile (Online, Self Muted) is the top layer Radix gives Escape to:
          // Escape inside the countdown cancels whatever else is on screen.
          onKeyDown={(event) => {
            if (event.key === 'Escape') onCancel();
          }}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancel.current?.focus();
          }}
          className="fixed inset-0 z-[70] flex flex-col items-center justify-center gap-10 bg-destructive px-6 pt-[max(env(safe-area-inset-top),1.5rem)] pb-[max(env(safe-area-inset-bottom),2rem)] text-center text-destructive-foreground outline-none"
        >
          <div className="grid gap-3">
            <AlertDialog.Title
              aria-live="polite"
              className="font-display text-3xl leading-tight font-extrabold break-words sm:text-4xl"
            >
              {title}
            </AlertDialog.Title>
            <AlertDialog.Description className="mx-auto max-w-sm text-base">
              {SOS_TEXTS.countdownHelp}
            </AlertDialog.Description>
          </div>
          {sending ? (
            <Spinner size="lg" />
          ) : (
            <p aria-hidden="true" className="font-display text-8xl font-extrabold tabular-nums">
              {left}
            </p>
          )}
          <AlertDialog.Cancel
            ref={cancel}
            disabled={sending}
            onClick={onCancel}
            className="min-h-16 w-full max-w-xs cursor-pointer rounded-full bg-white px-8 font-display text-2xl font-extrabold text-destructive shadow-lg focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-white disabled:opacity-60"
          >
            {SOS_TEXTS.cancel}
          </AlertDialog.Cancel>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
