import { Mic, MicOff, Radio } from 'lucide-react';
import {
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { cn } from '../../lib/cn';
import type { TalkButtonState } from './talk-button-state';

/**
 * The talk button's own texts. Who is talking is the floor's status line right under it
 * (FloorStatus), which the button names as its description: one place on screen says it.
 */
export const TALK_BUTTON_TEXTS = {
  hold: 'Hold to talk',
  keys: 'or hold Space',
  asking: 'Asking for the floor…',
  live: 'Live',
  release: 'Release to stop',
  busy: 'Busy',
  cutIn: 'Hold to cut in',
  secondsLeft: (seconds: number) => `${seconds} ${seconds === 1 ? 'second' : 'seconds'} left`,
} as const;

/** How long one refusal shakes the button (the keyframes in styles.css last as long). */
export const SHAKE_MS = 450;

/** Space and Enter hold to talk while the button has focus, as a held pointer does. */
const HOLD_KEYS = new Set([' ', 'Enter']);

/** The countdown ring: a circle in a 100-unit box, drawn from the top, clockwise. */
const RADIUS = 47;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

export type TalkButtonProps = {
  state: TalkButtonState;
  /** A live transmission's seconds left of its maximum length; null when there is no maximum. */
  countdown?: { left: number; total: number } | null;
  /** Still held after the floor was refused or taken back. */
  refused?: boolean;
  /** When the last refusal happened: each new value shakes the button once. */
  refusedAt?: number | null;
  selfMuted?: boolean;
  /** A channel admin: a press while busy takes the floor, so the busy button says so. */
  mayCutIn?: boolean;
  /** Id of the note that says why the button is disabled. */
  describedBy?: string;
  onPress: () => void;
  onRelease: () => void;
};

/**
 * The walkie-talkie's talk button, apart from the ONLINE switch: pressed and held (pointer, touch,
 * Space or Enter while focused) it talks; let go, it stops. Ready, live with a ring counting down
 * the maximum transmission (the seconds left are a timer for screen readers), or busy while
 * someone else holds the floor; a refused press shakes it (a still outline under
 * prefers-reduced-motion).
 */
export function TalkButton({
  state,
  countdown = null,
  refused = false,
  refusedAt = null,
  selfMuted = false,
  mayCutIn = false,
  describedBy,
  onPress,
  onRelease,
}: TalkButtonProps) {
  const held = useRef<'pointer' | 'key' | null>(null);
  const disabled = state === 'off';
  const shaking = useShake(refusedAt);

  // Disabled mid-hold (went offline, a call came in): the hold ends with it.
  useEffect(() => {
    if (disabled && held.current !== null) {
      held.current = null;
      onRelease();
    }
  }, [disabled, onRelease]);

  const start = (by: 'pointer' | 'key') => {
    if (held.current !== null) return;
    held.current = by;
    onPress();
  };
  const end = (by: 'pointer' | 'key') => {
    if (held.current !== by) return;
    held.current = null;
    onRelease();
  };
  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0 || disabled) return;
    const button = event.currentTarget;
    // Keeps the pointer's release coming here when a finger slides off the button while talking.
    if (typeof button.setPointerCapture === 'function') button.setPointerCapture(event.pointerId);
    start('pointer');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!HOLD_KEYS.has(event.key)) return;
    // No click, no page scroll: the key is the talk key while it is down.
    event.preventDefault();
    if (!event.repeat && !disabled) start('key');
  };
  const onKeyUp = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!HOLD_KEYS.has(event.key)) return;
    event.preventDefault();
    end('key');
  };

  const live = state === 'live';
  const busy = state === 'busy';
  const pressed = live || state === 'requesting' || refused;
  const Icon = busy ? Radio : live ? Radio : selfMuted ? MicOff : Mic;
  const left = live && countdown ? countdown.left : null;

  return (
    <div className="flex flex-col items-center gap-2">
      <div
        data-testid="talk-button-frame"
        className={cn(
          'relative grid size-48 place-items-center rounded-full sm:size-56',
          shaking &&
            'motion-safe:animate-shake motion-reduce:outline-4 motion-reduce:outline-destructive',
        )}
      >
        {live ? <CountdownRing countdown={countdown} /> : null}
        <button
          type="button"
          disabled={disabled}
          aria-pressed={pressed}
          aria-describedby={describedBy}
          data-state={refused ? 'refused' : state}
          data-shaking={shaking ? 'true' : undefined}
          onPointerDown={onPointerDown}
          onPointerUp={() => end('pointer')}
          onPointerCancel={() => end('pointer')}
          onLostPointerCapture={() => end('pointer')}
          onKeyDown={onKeyDown}
          onKeyUp={onKeyUp}
          onBlur={() => end('key')}
          onContextMenu={(event) => event.preventDefault()}
          className={cn(
            'relative flex size-40 touch-none flex-col items-center justify-center gap-1 rounded-full border-4 px-4 text-center sm:size-48',
            'font-display shadow-lg transition-[background-color,border-color,transform,box-shadow] select-none [-webkit-touch-callout:none]',
            'focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-ring',
            'cursor-pointer disabled:cursor-not-allowed disabled:opacity-50 disabled:shadow-none',
            state === 'off' && 'border-border bg-card text-muted-foreground',
            (state === 'ready' || state === 'requesting') &&
              'border-primary bg-primary-soft text-primary-soft-foreground hover:bg-accent',
            state === 'requesting' && 'scale-95',
            live &&
              'scale-95 border-primary-hover bg-primary text-primary-foreground shadow-primary/30',
            busy && 'border-warning bg-card text-foreground',
            refused && 'border-destructive',
          )}
        >
          <Icon
            aria-hidden="true"
            className={cn('size-9 shrink-0 sm:size-11', busy && 'text-warning-text')}
          />
          <Caption
            title={
              live ? TALK_BUTTON_TEXTS.live : busy ? TALK_BUTTON_TEXTS.busy : TALK_BUTTON_TEXTS.hold
            }
            note={
              live
                ? TALK_BUTTON_TEXTS.release
                : state === 'requesting'
                  ? TALK_BUTTON_TEXTS.asking
                  : busy && mayCutIn
                    ? TALK_BUTTON_TEXTS.cutIn
                    : null
            }
            keys={state === 'ready'}
          />
          {left !== null ? (
            <span aria-hidden="true" className="text-sm font-bold tabular-nums">
              {left} s
            </span>
          ) : null}
        </button>
      </div>
      {left !== null ? (
        <span role="timer" className="sr-only">
          {TALK_BUTTON_TEXTS.secondsLeft(left)}
        </span>
      ) : null}
    </div>
  );
}

/** The button's lines; the spaces between them keep its accessible name in words ("Busy Hold…"). */
function Caption({ title, note, keys }: { title: string; note: ReactNode; keys: boolean }) {
  return (
    <>
      <span className="text-xl leading-tight font-extrabold tracking-wider uppercase sm:text-2xl">
        {title}
      </span>{' '}
      {note ? <span className="text-xs font-medium sm:text-sm">{note}</span> : null}{' '}
      {keys ? (
        <span className="hidden text-xs font-medium text-muted-foreground pointer-fine:block">
          {TALK_BUTTON_TEXTS.keys}
        </span>
      ) : null}
    </>
  );
}

/**
 * The ring that empties as the maximum transmission runs out. It moves once a second (a CSS
 * transition smooths each step, none under prefers-reduced-motion), and it is full and still
 * where there is no maximum.
 */
function CountdownRing({ countdown }: { countdown: { left: number; total: number } | null }) {
  const fraction = countdown ? Math.min(1, countdown.left / Math.max(1, countdown.total)) : 1;
  const low = countdown !== null && countdown.left <= 10;
  return (
    <svg
      aria-hidden="true"
      data-testid="countdown-ring"
      data-fraction={fraction.toFixed(3)}
      viewBox="0 0 100 100"
      className="absolute inset-0 size-full -rotate-90"
    >
      <circle cx="50" cy="50" r={RADIUS} fill="none" strokeWidth="4" className="stroke-border" />
      <circle
        cx="50"
        cy="50"
        r={RADIUS}
        fill="none"
        strokeWidth="4"
        strokeLinecap="round"
        strokeDasharray={CIRCUMFERENCE}
        strokeDashoffset={CIRCUMFERENCE * (1 - fraction)}
        className={cn(
          'motion-safe:transition-[stroke-dashoffset] motion-safe:duration-1000 motion-safe:ease-linear',
          low ? 'stroke-warning' : 'stroke-primary',
        )}
      />
    </svg>
  );
}

/** True for SHAKE_MS after each new `refusedAt`. */
function useShake(refusedAt: number | null): boolean {
  const [settled, setSettled] = useState<number | null>(null);
  useEffect(() => {
    if (refusedAt === null) return;
    const timer = setTimeout(() => setSettled(refusedAt), SHAKE_MS);
    return () => clearTimeout(timer);
  }, [refusedAt]);
  return refusedAt !== null && refusedAt !== settled;
}
