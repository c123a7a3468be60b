import { Radio, RadioTower } from 'lucide-react';
import { cn } from '../../lib/cn';
import { useAuth } from '../auth/useAuth';
import { hasFloor } from '../presence/transmit-gate';
import { usePresence } from '../presence/usePresence';
import { useFloorView } from './floor-view';

/** The texts the floor shows; "<name> is talking" names whoever holds the floor. */
export const FLOOR_TEXTS = {
  live: 'You are live',
  clear: 'Hold to talk — one at a time',
  talking: (name: string) => `${name} is talking`,
  label: 'Walkie-talkie channel',
} as const;

/**
 * Under the talk button in a walkie-talkie channel: who has the floor. The talker sees that they
 * are live; everyone else sees "<name> is talking" (also after their own press was refused).
 * A polite live region, so screen readers hear the floor change hands; `id` lets the talk button
 * name it as its description.
 */
export function FloorStatus({ id }: { id?: string }) {
  const { gate, online } = usePresence();
  const { user } = useAuth();
  const { holder } = useFloorView();
  if (!gate.walkie) return null;
  const mine = hasFloor(gate) || (holder !== null && holder.id === user?.id);
  const text = mine
    ? FLOOR_TEXTS.live
    : holder
      ? FLOOR_TEXTS.talking(holder.name)
      : online
        ? FLOOR_TEXTS.clear
        : null;
  return (
    <div className="flex flex-col items-center gap-1.5" data-testid="floor-status">
      <p
        id={id}
        role="status"
        aria-live="polite"
        className={cn(
          'flex min-h-8 items-center gap-2 rounded-full px-3.5 py-1 text-base font-semibold empty:invisible',
          mine && 'bg-primary text-primary-foreground',
          !mine && holder && 'bg-warning/15 text-foreground',
          !mine && !holder && 'text-sm font-medium text-muted-foreground',
        )}
      >
        {text ? (
          <>
            {mine || holder ? <Radio aria-hidden="true" className="size-4 shrink-0" /> : null}
            {text}
          </>
        ) : null}
      </p>
      <span className="inline-flex items-center gap-1.5 rounded-full border border-border bg-card px-2.5 py-0.5 text-xs font-medium text-muted-foreground">
        <RadioTower aria-hidden="true" className="size-3.5" />
        {FLOOR_TEXTS.label}
      </span>
    </div>
  );
}
