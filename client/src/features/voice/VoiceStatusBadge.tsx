import { Loader2, Radio } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { usePresence } from '../presence/usePresence';
import { useVoiceRoomView } from './useVoiceRoomView';

/** Top bar (spec §2): "Voice Ready" when the room is connected, "Connecting" otherwise, while online. */
export function VoiceStatusBadge() {
  const { online } = usePresence();
  const { roomState } = useVoiceRoomView();
  if (!online) return null;
  const ready = roomState === 'connected';
  return (
    <Badge variant={ready ? 'success' : 'warning'} role="status">
      {ready ? (
        <Radio aria-hidden="true" />
      ) : (
        <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
      )}
      {ready ? 'Voice Ready' : 'Connecting'}
    </Badge>
  );
}
