import { IdleBadge } from '../presence/IdleBadge';
import { VoiceStatusBadge } from '../voice/VoiceStatusBadge';

/** The top bar's status badges: Voice Ready / Connecting while online, and Idle - Saving Minutes. */
export function TopBarStatusSlot() {
  return (
    <>
      <VoiceStatusBadge />
      <IdleBadge />
    </>
  );
}
