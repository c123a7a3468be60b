import { useEffect, useRef } from 'react';
import { Volume1, Volume2, VolumeX } from 'lucide-react';
import { MAX_MEMBER_VOLUME, MIN_MEMBER_VOLUME } from '../../../../protocol/voice-preferences';
import { useMemberVolume } from './useVoicePreferences';

/** Arrow keys move 5 %; Page Up/Down, Home and End are the browser's own. */
const STEP = 5;
/** A drag or a run of key presses is saved once it rests, not at every step. */
export const SAVE_AFTER_MS = 400;

type Pending = { timer: ReturnType<typeof setTimeout>; volume: number };

function flushPending(pending: { current: Pending | null }, save: (volume: number) => void): void {
  const waiting = pending.current;
  if (!waiting) return;
  clearTimeout(waiting.timer);
  pending.current = null;
  save(waiting.volume);
}

function VolumeIcon({ volume }: { volume: number }) {
  const Icon = volume === 0 ? VolumeX : volume < 100 ? Volume1 : Volume2;
  return <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />;
}

/**
 * How loud one member plays for the signed-in listener, 0-200 %, on their member card.
 * A native range input: keyboard, touch and screen readers work without extra script on the main
 * screen. The audio follows the thumb at once; the choice is saved when it rests or loses focus.
 */
export function MemberVolumeSlider({ memberId, name }: { memberId: string; name: string }) {
  const { volume, preview, save } = useMemberVolume(memberId);
  const pending = useRef<Pending | null>(null);
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  const flush = () => flushPending(pending, (next) => saveRef.current(next));
  // Leaving the screen mid-drag still keeps the last choice.
  useEffect(() => () => flushPending(pending, (next) => saveRef.current(next)), []);

  const change = (next: number) => {
    preview(next);
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = { volume: next, timer: setTimeout(flush, SAVE_AFTER_MS) };
  };

  return (
    <div className="flex items-center gap-2" data-testid="member-volume">
      <VolumeIcon volume={volume} />
      <input
        type="range"
        aria-label={`Volume for ${name}`}
        aria-valuetext={`${volume}%`}
        min={MIN_MEMBER_VOLUME}
        max={MAX_MEMBER_VOLUME}
        step={STEP}
        value={volume}
        onChange={(event) => change(Number(event.target.value))}
        onBlur={flush}
        className="h-6 w-full min-w-0 cursor-pointer accent-[var(--primary)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      />
      <span
        aria-hidden="true"
        className="w-11 shrink-0 text-right text-xs text-muted-foreground tabular-nums"
      >
        {volume}%
      </span>
    </div>
  );
}
