import { MicOff, Moon, Power, Radio } from 'lucide-react';
import { useRef } from 'react';
import { cn } from '../../lib/cn';
import { holdControl } from './hold-control';
import { holdsToTalk, isSelfMuted } from './transmit-gate';
import { RELEASE_HOLD_MS } from './talk-mode';
import { toggleOnline, usePresence } from './usePresence';

export type OnlineButtonProps = {
  /** No channel selected, or no open socket: nothing to go online in. */
  disabled?: boolean;
  /** Id of a note explaining why it is disabled (the socket state). */
  describedBy?: string;
  /** The voice room hears the user's own voice right now (not just an open microphone). */
  voiceHeard?: boolean;
};

/**
 * Spec §2: the large round ONLINE / OFFLINE toggle, captioned "Tap to connect" / "Tap to
 * disconnect". A native button, so Enter and Space work; aria-pressed tells its state.
 *
 * The halo around it says the microphone is on the air; it pulses only while the room hears the
 * user's voice. A page left ONLINE for hours is silent nearly all the time, and a pulse that never
 * stops redraws the page every frame (decision 042: 8 % of a core in the GPU process and
 * 4 % in the renderer where compositing is done in software).
 */
export function OnlineButton({
  disabled = false,
  describedBy,
  voiceHeard = false,
}: OnlineButtonProps) {
  const presence = usePresence();
  const { online, idle, talking, gate } = presence;
  const selfMuted = isSelfMuted(gate);
  const Icon = !online ? Power : idle ? Moon : selfMuted ? MicOff : Radio;
  const holdMode = online && holdsToTalk(gate);
  // In hold mode a long press talks; only a short tap toggles online/offline.
  const pressedAt = useRef<number | null>(null);
  const onPointerDown = () => {
    if (!holdControl.active()) return;
    pressedAt.current = performance.now();
    holdControl.press();
  };
  const onPointerEnd = () => {
    if (pressedAt.current !== null) holdControl.release();
  };
  const onClick = () => {
    const heldFor = pressedAt.current === null ? 0 : performance.now() - pressedAt.current;
    pressedAt.current = null;
    if (heldFor >= RELEASE_HOLD_MS) return;
    toggleOnline();
  };
  return (
    <div className="relative flex items-center justify-center">
      {online && !idle && !selfMuted && (!holdMode || talking) ? (
        <span
          aria-hidden="true"
          data-testid="on-air-halo"
          className={cn(
            'absolute -inset-4 rounded-full bg-primary/20',
            voiceHeard && 'motion-safe:animate-pulse',
          )}
        />
      ) : null}
      <button
        type="button"
        aria-pressed={online}
        aria-describedby={describedBy}
        disabled={disabled}
        onClick={onClick}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onPointerLeave={onPointerEnd}
        className={cn(
          'relative flex size-44 cursor-pointer flex-col items-center justify-center gap-1.5 rounded-full sm:size-52',
          'border-4 font-display shadow-lg transition-[background-color,border-color,transform,box-shadow] select-none',
          'focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-ring active:scale-95',
          'disabled:cursor-not-allowed disabled:opacity-50 disabled:shadow-none',
          online
            ? 'border-primary-hover bg-primary text-primary-foreground shadow-primary/30 hover:bg-primary-hover'
            : 'border-border bg-card text-card-foreground hover:border-primary/60 hover:bg-accent',
          online && idle && 'border-warning',
        )}
      >
        <Icon
          aria-hidden="true"
          className={cn('size-10 sm:size-12', !online && 'text-muted-foreground')}
        />
        <span className="text-2xl font-extrabold tracking-wider sm:text-3xl">
          {online ? 'ONLINE' : 'OFFLINE'}
        </span>
        <span
          className={cn(
            'text-xs font-medium sm:text-sm',
            online ? 'text-primary-foreground' : 'text-muted-foreground',
          )}
        >
          {online ? 'Tap to disconnect' : 'Tap to connect'}
        </span>
        {holdMode ? (
          <span className="text-[0.7rem] font-semibold uppercase tracking-wide text-primary-foreground">
            {talking ? 'Talking' : 'Hold to talk'}
          </span>
        ) : null}
      </button>
    </div>
  );
}
