import { ChevronDown, Mic, MicOff, PhoneOff } from 'lucide-react';
import { Button } from '../../ui/Button';
import type { CallState } from './call-state';
import { CallAvatar } from './CallAvatar';
import { CallScreen, RoundCallButton } from './CallScreen';
import { CallTimer } from './CallTimer';

type LiveCall = Extract<CallState, { phase: 'outgoing' | 'active' }>;

export type ActiveCallOverlayProps = {
  state: LiveCall;
  muted: boolean;
  onToggleMute: () => void;
  onEnd: () => void;
  onMinimize: () => void;
};

/**
 * Spec §2: name, m:ss timer, "Connected" or "Connecting voice...", mute, end, minimize. While the
 * other side still rings it says only "Calling…" where the timer and the voice's status will be.
 */
export function ActiveCallOverlay({
  state,
  muted,
  onToggleMute,
  onEnd,
  onMinimize,
}: ActiveCallOverlayProps) {
  const { call } = state;
  const status =
    state.phase === 'active' && state.media === 'connected' ? 'Connected' : 'Connecting voice...';

  return (
    <CallScreen
      title={`Call with ${call.contactName}`}
      description="Press Escape to minimize the call."
      onEscape={onMinimize}
    >
      <div className="flex w-full max-w-md justify-start">
        <Button variant="ghost" size="icon" aria-label="Minimize call" onClick={onMinimize}>
          <ChevronDown aria-hidden="true" />
        </Button>
      </div>
      <div data-testid="active-call" className="flex flex-col items-center gap-5 text-center">
        <CallAvatar
          name={call.contactName}
          imageUrl={call.contactProfileImageUrl}
          ringing={state.phase === 'outgoing'}
        />
        <div className="grid gap-1">
          <p className="font-display text-3xl font-bold break-words">{call.contactName}</p>
          {/* One state at a time: "Calling…" while it rings, then the timer and the voice's status. */}
          {state.phase === 'active' ? (
            <>
              <CallTimer startedAt={state.startedAt} className="text-2xl font-medium" />
              <p
                role="status"
                className={status === 'Connected' ? 'text-success-text' : 'text-muted-foreground'}
              >
                {status}
              </p>
            </>
          ) : (
            <p role="status" className="text-2xl font-medium text-muted-foreground">
              Calling…
            </p>
          )}
        </div>
      </div>
      <div className="flex w-full max-w-xs justify-between">
        <RoundCallButton
          label="Mute"
          caption={muted ? 'Muted' : 'Mute'}
          tone="neutral"
          pressed={muted}
          icon={muted ? <MicOff aria-hidden="true" /> : <Mic aria-hidden="true" />}
          onClick={onToggleMute}
        />
        <RoundCallButton
          label="End call"
          caption="End"
          tone="decline"
          icon={<PhoneOff aria-hidden="true" />}
          onClick={onEnd}
        />
      </div>
    </CallScreen>
  );
}
