import { useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useSocketState } from '../realtime/useSocket';

/**
 * Says why going online is not possible right now: the live connection is not open. Silent while
 * connected. "Reconnecting…" after a drop; before the first connection a wording that does not
 * collide with the spec's "Connecting" badge and "Connecting to voice..." toast.
 */
export function SocketStatusNote({ id }: { id?: string }) {
  const state = useSocketState();
  const [everConnected, setEverConnected] = useState(false);
  // Adjusting state while rendering (not in an effect) so the first connected render already knows.
  if (state === 'connected' && !everConnected) setEverConnected(true);
  return (
    <p
      id={id}
      role="status"
      className="flex min-h-5 items-center gap-1.5 text-sm text-muted-foreground"
    >
      {state === 'connected' ? null : (
        <>
          <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
          {everConnected ? 'Reconnecting…' : 'Waiting for the server…'}
        </>
      )}
    </p>
  );
}
