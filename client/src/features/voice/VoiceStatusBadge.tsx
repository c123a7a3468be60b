import { Loader2, Radio, RadioTower } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { usePresence } from '../presence/usePresence';
import { useVoiceRoomView } from './useVoiceRoomView';
import { voiceBadge } from './voice-badge';

/** Top bar (spec §2): "Voice Ready" when the room is connected, "Connecting" while it tries. */
export function VoiceStatusBadge() {
  const presence = usePresence();
  const { phase } = useVoiceRoomView();
  switch (voiceBadge(presence, phase)) {
    case 'ready':
      return (
        <Badge variant="success" role="status">
          <Radio aria-hidden="true" />
          Voice Ready
        </Badge>
      );
    case 'connecting':
      return (
        <Badge variant="warning" role="status">
          <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
          Connecting
        </Badge>
      );
    case 'unavailable':
      return (
        <Badge variant="outline" role="status">
          <RadioTower aria-hidden="true" />
          Voice Unavailable
        </Badge>
      );
    case null:
      return null;
  }
}
