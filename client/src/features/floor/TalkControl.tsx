import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useAuth } from '../auth/useAuth';
import { channelMembersQuery } from '../channels/channel-queries';
import { holdControl } from '../presence/hold-control';
import { isSelfMuted } from '../presence/transmit-gate';
import { usePresence } from '../presence/usePresence';
import { useFloorView } from './floor-view';
import { talkButtonState } from './talk-button-state';
import { TalkButton } from './TalkButton';
import { useSecondsLeft } from './useSecondsLeft';

export const TALK_CONTROL_TEXTS = { goOnline: 'Go online to talk' } as const;

const press = () => {
  if (holdControl.active()) holdControl.press();
};
const release = () => holdControl.release();

export type TalkControlProps = {
  /** Nothing to talk in even when ONLINE: a call, no channel, no open socket. */
  disabled?: boolean;
  /** Ids of the notes that say why (the socket state, a call). */
  describedBy?: string;
};

/**
 * The talk button wired to the tab's hold gesture and the walkie-talkie floor: the same hold as
 * the Space key and the headset button, the floor holder from the server, and the countdown of
 * this tab's own transmission. OFFLINE it is disabled and says to go online first.
 */
export function TalkControl({ disabled = false, describedBy }: TalkControlProps) {
  const { online, gate, channelId } = usePresence();
  const { user } = useAuth();
  const floor = useFloorView();
  // The member list the channel bar polls, read from the cache only (never fetched from here):
  // a channel admin's press takes the floor from whoever holds it, as the server decides.
  const members = useQuery({ ...channelMembersQuery(channelId ?? 0), enabled: false });
  const mayCutIn =
    user !== null &&
    (user.subscriptionTier === 'superadmin' ||
      (members.data?.some((member) => member.id === user.id && member.role === 'admin') ?? false));
  const offlineNoteId = useId();
  const state = talkButtonState({
    usable: online && !disabled,
    gate: gate.state,
    walkie: gate.walkie,
    holder: floor.holder,
    userId: user?.id ?? null,
  });
  const live = state === 'live' && gate.walkie ? floor.live : null;
  const left = useSecondsLeft(live?.until ?? null);
  const offline = !online && !disabled;
  return (
    <div className="flex flex-col items-center gap-1">
      <TalkButton
        state={state}
        countdown={live && left !== null ? { left, total: live.seconds } : null}
        refused={gate.state === 'refused'}
        refusedAt={floor.deniedAt}
        mayCutIn={mayCutIn}
        selfMuted={isSelfMuted(gate)}
        describedBy={
          [offline ? offlineNoteId : null, describedBy].filter(Boolean).join(' ') || undefined
        }
        onPress={press}
        onRelease={release}
      />
      {offline ? (
        <p id={offlineNoteId} className="text-sm text-muted-foreground">
          {TALK_CONTROL_TEXTS.goOnline}
        </p>
      ) : null}
    </div>
  );
}
