import { useEffect } from 'react';
import { displayName } from '../../../../protocol/user';
import { useAuth } from '../auth/useAuth';
import { useCallActive } from '../calls/call-active';
import { usePresence } from '../presence/usePresence';
import { audioPolicyStore } from './audio-policy-store';
import { useHiddenUserIds } from './useHiddenUserIds';
import { useRoomTones } from './useRoomTones';
import { useVoiceRoom, type VoiceRoom } from './useVoiceRoom';

/**
 * The main screen's voice, wired from the presence state: the room is on while full-duplex is
 * connected (online in a channel, socket open), no call is active and the user is not idle
 * (DESIGN §3). Mount once, through `<ChannelVoiceRuntime />`.
 */
export function useChannelVoice(): VoiceRoom {
  const { user } = useAuth();
  const presence = usePresence();
  const callActive = useCallActive();
  const channelId = presence.channelId;
  const hiddenUserIds = useHiddenUserIds(channelId);

  const room = useVoiceRoom({
    channelId,
    userId: user?.id ?? null,
    userName: user ? displayName(user) : '',
    disabled: !presence.fullDuplexConnected || callActive || presence.idle,
    mutedUserIds: hiddenUserIds,
    // Presence's "talking" already means online, not self-muted, not idle, socket open.
    microphoneOn: presence.online && presence.talking && !presence.selfMuted,
  });

  useRoomTones(room.connected);

  // Going offline resets Mute Channel as it resets Mute Self, so the next ONLINE hears the channel.
  useEffect(() => {
    if (!presence.online) audioPolicyStore.setChannelMuted(false);
  }, [presence.online]);

  return room;
}

/** Runs the channel voice; renders nothing. Mount once on the main screen. */
export function ChannelVoiceRuntime(): null {
  useChannelVoice();
  return null;
}
