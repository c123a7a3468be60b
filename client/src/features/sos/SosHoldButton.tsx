import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { SOS_HOLD_MS } from '../../../../protocol/sos';
import { cn } from '../../lib/cn';
import type { SosTarget } from './sos-target';
import { SOS_TEXTS } from './sos-texts';

const RADIUS = 46;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;
/** How long "Hold for 2 seconds" stays after a press too short. */
export const HOLD_HINT_MS = 3_000;

export type SosHoldButtonProps = {
  target: SosTarget;
  /** Held long enough: the countdown starts. */
  onHeld: (target: SosTarget) => void;
};

const HOLD_KEYS = new Set([' ', 'Enter']);

/**
 * The SOS button (decision 050): held 2 seconds by pointer, touch, or Space/Enter while focused,
 * with a ring that fills meanwhile; released early it does nothing but say how it works. Its name
 * says where the SOS goes. A tap, a stray touch or a long-press menu never sends anything.
 */
export function SosHoldButton({ target, onHeld }: SosHoldButtonProps) {
  const [holding, setHolding] = useState(false);
  const [hint, setHint] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hintTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const held = useRef(false);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      clearTimeout(hintTimer.current);
    },
    [],
  );

  const press = () => {
    if (held.current) return;
    held.current = true;
    setHolding(true);
    setHint(false);
    timer.current = setTimeout(() => {
      held.current = false;
      setHolding(false);
      onHeld(target);
    }, SOS_HOLD_MS);
  };

  const release = () => {
    if (!held.current) return;
    held.current = false;
    clearTimeout(timer.current);
    setHolding(false);
    setHint(true);
    clearTimeout(hintTimer.current);
    hintTimer.current = setTimeout(() => setHint(false), HOLD_HINT_MS);
  };

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    press();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!HOLD_KEYS.has(event.key)) return;
    // No click, no scrolling, and not also push-to-talk's Space: the key holds SOS.
    event.preventDefault();
    event.stopPropagation();
    if (!event.repeat) press();
  };
  const onKeyUp = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!HOLD_KEYS.has(event.key)) return;
    event.preventDefault();
    event.stopPropagation();
    release();
  };

  return (
    <div className="flex flex-col items-center gap-1.5">
      <button
        type="button"
        data-testid="sos-button"
        data-holding={holding ? 'true' : 'false'}
        aria-label={SOS_TEXTS.buttonLabel(target.name)}
        onPointerDown={onPointerDown}
        onPointerUp={release}
        onPointerCancel={release}
        onLostPointerCapture={release}
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
        onBlur={release}
        onContextMenu={(event) => event.preventDefault()}
        className={cn(
          'relative grid size-16 cursor-pointer touch-none place-items-center rounded-full select-none [-webkit-touch-callout:none]',
          'border-2 border-destructive bg-card font-display text-lg font-extrabold tracking-wider text-destructive-text shadow-sm',
          'hover:bg-destructive/10 focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-ring',
          holding && 'bg-destructive text-destructive-foreground hover:bg-destructive',
        )}
      >
        <svg
          aria-hidden="true"
          data-testid="sos-hold-ring"
          viewBox="0 0 100 100"
          className="pointer-events-none absolute -inset-2 size-[calc(100%+1rem)] -rotate-90"
        >
          <circle
            cx="50"
            cy="50"
            r={RADIUS}
            fill="none"
            strokeWidth="5"
            strokeLinecap="round"
            strokeDasharray={CIRCUMFERENCE}
            strokeDashoffset={holding ? 0 : CIRCUMFERENCE}
            style={{
              transitionProperty: 'stroke-dashoffset',
              transitionTimingFunction: 'linear',
              transitionDuration: holding ? `${SOS_HOLD_MS}ms` : '0ms',
            }}
            className="stroke-destructive"
          />
        </svg>
        <span aria-hidden="true">{SOS_TEXTS.button}</span>
      </button>
      <p role="status" className="min-h-4 text-xs font-medium text-muted-foreground">
        {hint ? SOS_TEXTS.holdHint : ''}
      </p>
    </div>
  );
}
