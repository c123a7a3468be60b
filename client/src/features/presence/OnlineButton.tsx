import { useRef } from 'react';
import { MicOff, Moon, Power, Radio } from 'lucide-react';
import { cn } from '../../lib/cn';
import { isSelfMuted } from './transmit-gate';
import { toggleOnline, usePresence } from './usePresence';

export type OnlineButtonProps = {
  /** No channel selected, or no open socket: nothing to go online in. */
  disabled?: boolean;
  /** Ids of notes explaining why it is disabled (the socket state, a call). */
  describedBy?: string;
  /** The voice room hears the user's own voice right now (not just an open microphone). */
  voiceHeard?: boolean;
  /**
   * `round`: the spec's large round button (an open channel, where ONLINE means talking).
   * `switch`: a compact ONLINE / OFFLINE switch beside a separate talk button, where holding to
   * talk applies (decision 043), so a tap meant to talk never takes the user offline.
   */
  variant?: 'round' | 'switch';
};

/**
 * Spec §2: the ONLINE / OFFLINE toggle, captioned "Tap to connect" / "Tap to disconnect". A native
 * button, so Enter and Space work; aria-pressed tells its state. It only ever toggles: talking by
 * holding is the talk button's (floor/TalkButton.tsx).
 *
 * The halo around the round one says the microphone is on the air; it pulses only while the room
 * hears the user's voice. A page left ONLINE for hours is silent nearly all the time, and a pulse
 * that never stops redraws the page every frame (decision 042: 8 % of a core in the GPU process
 * and 4 % in the renderer where compositing is done in software).
 */
export function OnlineButton({
  disabled = false,
  describedBy,
  voiceHeard = false,
  variant = 'round',
}: OnlineButtonProps) {
  const { online, idle, gate } = usePresence();
  const selfMuted = isSelfMuted(gate);
  // A tap while idle is the user coming back (the press itself resumes listening, spec §4): it
  // must not also take them OFFLINE, which is what the same tap's click would do.
  const pressedWhileIdle = useRef(false);
  const notePress = () => {
    pressedWhileIdle.current = online && idle;
  };
  const onClick = () => {
    if (pressedWhileIdle.current) {
      pressedWhileIdle.current = false;
      return;
    }
    toggleOnline();
  };
  const label = online ? 'ONLINE' : 'OFFLINE';
  const caption = online ? 'Tap to disconnect' : 'Tap to connect';
  if (variant === 'switch') {
    return (
      <button
        type="button"
        aria-pressed={online}
        aria-describedby={describedBy}
        disabled={disabled}
        onPointerDown={notePress}
        onClick={onClick}
        className={cn(
          'flex min-h-14 cursor-pointer items-center gap-3 rounded-full border-2 py-2 pr-5 pl-3 font-display shadow-sm select-none',
          'transition-[background-color,border-color] focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-ring',
          'disabled:cursor-not-allowed disabled:opacity-50 disabled:shadow-none',
          online
            ? 'border-primary bg-card text-foreground hover:bg-accent'
            : 'border-border bg-card text-card-foreground hover:border-primary/60 hover:bg-accent',
          online && idle && 'border-warning',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'relative h-7 w-12 shrink-0 rounded-full transition-colors',
            online ? 'bg-primary' : 'bg-input',
          )}
        >
          <span
            className={cn(
              'absolute top-0.5 left-0.5 grid size-6 place-items-center rounded-full bg-card shadow transition-transform',
              online && 'translate-x-5',
            )}
          >
            <Power className={cn('size-3.5', online ? 'text-primary' : 'text-muted-foreground')} />
          </span>
        </span>
        <span className="flex flex-col items-start leading-tight">
          <span className="text-base font-extrabold tracking-wider">{label}</span>
          <span className="text-xs font-medium text-muted-foreground">{caption}</span>
        </span>
      </button>
    );
  }
  const Icon = !online ? Power : idle ? Moon : selfMuted ? MicOff : Radio;
  return (
    <div className="relative flex items-center justify-center">
      {online && !idle && !selfMuted ? (
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
        onPointerDown={notePress}
        onClick={onClick}
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
        <span className="text-2xl font-extrabold tracking-wider sm:text-3xl">{label}</span>
        <span
          className={cn(
            'text-xs font-medium sm:text-sm',
            online ? 'text-primary-foreground' : 'text-muted-foreground',
          )}
        >
          {caption}
        </span>
      </button>
    </div>
  );
}
