import { useEffect, useSyncExternalStore } from 'react';
import { toast } from '../../ui/toast-store';
import { audioPolicyStore } from './audio-policy-store';
import { watchRemoteAudio } from './audio-policy';
import { microphoneErrorMessage } from './microphone-error';
import type { VoiceRoomView } from './room-connection/room-controller';
import { voiceRoom } from './voice-room';

export type VoiceRoomInputs = {
  /** Spec §3 "Voice hook inputs". */
  channelId: number | null;
  userId: string | null;
  userName: string;
  /** Not online in a channel with the socket open, a call active, or idle (the caller decides). */
  disabled: boolean;
  /** Admin-muted (and blocked) users: their audio elements are muted, live. */
  mutedUserIds: readonly string[];
  /** Online, talking and not self-muted: the microphone follows this while connected. */
  microphoneOn: boolean;
};

export type VoiceRoom = VoiceRoomView & {
  /** Does nothing unless connected (spec §5); rejects with the browser's error. */
  setMicrophoneEnabled: (on: boolean) => Promise<void>;
};

/** Read the room anywhere (badge, member cards) without driving it. */
export function useVoiceRoomView(): VoiceRoomView {
  return useSyncExternalStore(voiceRoom.subscribe, voiceRoom.getView, voiceRoom.getView);
}

/**
 * Drives the tab's voice room (spec §4 "Voice room connection"). Mount exactly once; everything
 * else reads it with `useVoiceRoomView`.
 */
export function useVoiceRoom({
  channelId,
  userId,
  userName,
  disabled,
  mutedUserIds,
  microphoneOn,
}: VoiceRoomInputs): VoiceRoom {
  const view = useVoiceRoomView();
  const enabled = !disabled && channelId !== null && userId !== null;

  useEffect(() => {
    voiceRoom.configure(
      enabled && channelId !== null && userId !== null ? { channelId, userId, userName } : null,
    );
  }, [enabled, channelId, userId, userName]);

  // Leaving the screen disconnects and ends the usage session.
  useEffect(() => () => voiceRoom.configure(null), []);

  const mutedKey = [...mutedUserIds].sort().join('\n');
  useEffect(() => {
    audioPolicyStore.setMutedUserIds(mutedKey ? mutedKey.split('\n') : []);
  }, [mutedKey]);

  useEffect(() => {
    audioPolicyStore.setSelfUserId(userId);
  }, [userId]);

  useEffect(() => {
    const watcher = watchRemoteAudio(audioPolicyStore.getPolicy);
    const off = audioPolicyStore.subscribe(watcher.reapply);
    return () => {
      off();
      watcher.stop();
    };
  }, []);

  useEffect(() => {
    if (!view.connected) return;
    voiceRoom.setMicrophoneEnabled(microphoneOn).catch((error: unknown) => {
      const message = microphoneErrorMessage(error);
      console.warn('voice: microphone failed', error);
      voiceRoom.reportMicrophoneFailure(message);
      toast({ title: 'Microphone Error', description: message, variant: 'destructive' });
    });
  }, [view.connected, microphoneOn]);

  return { ...view, setMicrophoneEnabled: (on) => voiceRoom.setMicrophoneEnabled(on) };
}
