import { useSyncExternalStore } from 'react';
import type { VoiceRoomView } from './room-connection/room-controller';
import { voiceRoom } from './voice-room';

/** The tab's voice room for rendering (badge, notes, member cards); the voice runtime drives it. */
export function useVoiceRoomView(): VoiceRoomView {
  return useSyncExternalStore(voiceRoom.subscribe, voiceRoom.getView, voiceRoom.getView);
}
