import { PhoneCall } from 'lucide-react';
import { Suspense, lazy, useId } from 'react';
import { FloorStatus } from '../floor/FloorStatus';
import { useCallActive } from '../calls/useCallView';
import { useCurrentChannel } from '../channels/current-channel';
import { OnlineButton } from '../presence/OnlineButton';
import { SocketStatusNote } from '../presence/SocketStatusNote';
import { holdsToTalk } from '../presence/transmit-gate';
import { usePresence } from '../presence/usePresence';
import { useAuth } from '../auth/useAuth';
import { useSpeakingUserIds } from '../voice/useSpeakingUserIds';
import { VoiceControls } from '../voice/VoiceControls';

// The talk button loads when holding to talk first applies: open channels never need it.
const TalkControl = lazy(() =>
  import('../floor/TalkControl').then((m) => ({ default: m.TalkControl })),
);
/** Holds the talk button's place while its code loads, so nothing below it jumps. */
const TALK_PLACEHOLDER = <div aria-hidden="true" className="size-48 sm:size-56" />;

export const VOICE_SLOT_TEXTS = { inCall: 'In a call — the channel waits until it ends' } as const;

/**
 * The voice area of the main screen: the big ONLINE / OFFLINE button with the live connection's
 * state under it, then Mute Self, Mute Channel and the voice room's notes. Where holding to talk
 * applies (a walkie-talkie channel, a direct conversation, or the user's Hold to talk) the ONLINE
 * switch and a separate talk button take the big button's place (decision 043).
 */
export function VoiceControlsSlot() {
  const { channelId } = useCurrentChannel();
  const { online, socketOpen, gate } = usePresence();
  const callActive = useCallActive();
  const { user } = useAuth();
  const speaking = useSpeakingUserIds();
  const noteId = useId();
  const callNoteId = useId();
  const floorId = useId();
  const describedBy = callActive ? `${callNoteId} ${noteId}` : noteId;
  const disabled = channelId === null || callActive || (!online && !socketOpen);

  return (
    <div className="flex flex-col items-center gap-5">
      {holdsToTalk(gate) ? (
        <>
          <OnlineButton variant="switch" disabled={disabled} describedBy={describedBy} />
          <div className="flex flex-col items-center gap-2">
            <Suspense fallback={TALK_PLACEHOLDER}>
              <TalkControl
                disabled={disabled || !socketOpen}
                describedBy={gate.walkie ? `${floorId} ${describedBy}` : describedBy}
              />
            </Suspense>
            {gate.walkie ? <FloorStatus id={floorId} /> : null}
          </div>
        </>
      ) : (
        <OnlineButton
          disabled={disabled}
          describedBy={describedBy}
          voiceHeard={user !== null && speaking.has(user.id)}
        />
      )}
      {callActive ? (
        <p id={callNoteId} className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <PhoneCall aria-hidden="true" className="size-4" />
          {VOICE_SLOT_TEXTS.inCall}
        </p>
      ) : null}
      <SocketStatusNote id={noteId} />
      <VoiceControls />
    </div>
  );
}
