import { AlertCircle, Music } from 'lucide-react';
import { usePresence } from '../presence/usePresence';
import { useVoiceRoomView } from './useVoiceRoomView';

export const BACKGROUND_MUSIC_TIP = 'Tip: pause background music for the clearest audio';

/** Spec §2: a tip about pausing background music, shown while online. */
export function BackgroundMusicTip() {
  const { online } = usePresence();
  if (!online) return null;
  return (
    <p className="flex items-center justify-center gap-2 text-center text-sm text-muted-foreground">
      <Music aria-hidden="true" className="size-4 shrink-0" />
      {BACKGROUND_MUSIC_TIP}
    </p>
  );
}

/** The voice room's error (spec §8 texts), while online; announced to screen readers. */
export function VoiceErrorNote() {
  const { online } = usePresence();
  const { error } = useVoiceRoomView();
  return (
    <div role="alert" className="empty:hidden">
      {online && error ? (
        <p className="flex items-center gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          <AlertCircle aria-hidden="true" className="size-4 shrink-0" />
          {error}
        </p>
      ) : null}
    </div>
  );
}
