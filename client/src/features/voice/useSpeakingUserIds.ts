import { useVoiceRoomView } from './useVoiceRoomView';

/** User ids the voice room hears speaking right now (self included), for member cards. */
export function useSpeakingUserIds(): ReadonlySet<string> {
  return useVoiceRoomView().speakingUserIds;
}
