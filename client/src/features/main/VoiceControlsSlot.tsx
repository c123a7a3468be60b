import { useId } from 'react';
import { FloorStatus } from '../floor/FloorStatus';
import { useCallActive } from '../calls/useCallView';
import { useCurrentChannel } from '../channels/current-channel';
import { OnlineButton } from '../presence/OnlineButton';
import { SocketStatusNote } from '../presence/SocketStatusNote';
import { usePresence } from '../presence/usePresence';
import { useAuth } from '../auth/useAuth';
import { useSpeakingUserIds } from '../voice/useSpeakingUserIds';
import { VoiceControls } from '../voice/VoiceControls';

/**
 * The voice area of the main screen: the big ONLINE / OFFLINE button with the live connection's
 * state under it, then Mute Self, Mute Channel and the voice room's notes.
 */
export function VoiceControlsSlot() {
  const { channelId } = useCurrentChannel();
  const { online, socketOpen, gate } = usePresence();
  const callActive = useCallActive();
  const { user } = useAuth();
  const speaking = useSpeakingUserIds();
  const noteId = useId();

  return (
    <div className="flex flex-col items-center gap-5">
      <OnlineButton
        disabled={channelId === null || callActive || (!online && !socketOpen)}
        describedBy={noteId}
        voiceHeard={user !== null && speaking.has(user.id)}
      />
      <SocketStatusNote id={noteId} />
      {gate.walkie ? <FloorStatus /> : null}
      <VoiceControls />
    </div>
  );
}
