import { Phone, PhoneOff } from 'lucide-react';
import { useRef } from 'react';
import type { CallInfo } from './call-state';
import { CallAvatar } from './CallAvatar';
import { CallScreen, RoundCallButton } from './CallScreen';

/** Spec §2: caller name, initials, "Incoming call...", decline and accept. The ringtone runs meanwhile. */
export function IncomingCallOverlay({
  call,
  onAccept,
  onDecline,
}: {
  call: CallInfo;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const accept = useRef<HTMLButtonElement>(null);
  return (
    <CallScreen
      title={`Incoming call from ${call.contactName}`}
      description="Accept or decline the call."
      initialFocus={() => accept.current}
    >
      <div />
      <div data-testid="incoming-call" className="flex flex-col items-center gap-5 text-center">
        <CallAvatar name={call.contactName} imageUrl={call.contactProfileImageUrl} ringing />
        <div className="grid gap-1">
          <p className="font-display text-3xl font-bold break-words">{call.contactName}</p>
          <p role="status" className="text-lg text-muted-foreground">
            Incoming call...
          </p>
        </div>
      </div>
      <div className="flex w-full max-w-xs justify-between">
        <RoundCallButton
          label="Decline call"
          caption="Decline"
          tone="decline"
          icon={<PhoneOff aria-hidden="true" />}
          onClick={onDecline}
        />
        <RoundCallButton
          label="Accept call"
          caption="Accept"
          tone="accept"
          icon={<Phone aria-hidden="true" />}
          onClick={onAccept}
          buttonRef={accept}
        />
      </div>
    </CallScreen>
  );
}
