import { API_PATHS } from '../../../../protocol/api-paths';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  DEFAULT_VOICE_PREFERENCES,
  voicePreferencesSchema,
  type VoicePreferences,
} from '../../../../protocol/voice-preferences';
import { parsedQuery } from '../../lib/query-client';

export const VOICE_PREFERENCES_KEY = [API_PATHS.voicePreferences] as const;

/**
 * The signed-in user's voice preferences, one query shared by the member cards, the
 * Settings switch and the voice runtime, so a change made on one shows everywhere at once.
 */
export const voicePreferencesQuery = queryOptions({
  queryKey: VOICE_PREFERENCES_KEY,
  queryFn: parsedQuery(voicePreferencesSchema),
});

/** The preferences as known now; the defaults until the server answered. */
export function currentVoicePreferences(queryClient: QueryClient): VoicePreferences {
  return queryClient.getQueryData(VOICE_PREFERENCES_KEY) ?? DEFAULT_VOICE_PREFERENCES;
}

/** Changes the cached preferences at once (before the server confirms), so audio follows the hand. */
export function patchVoicePreferences(
  queryClient: QueryClient,
  patch: (current: VoicePreferences) => VoicePreferences,
): void {
  queryClient.setQueryData(VOICE_PREFERENCES_KEY, patch(currentVoicePreferences(queryClient)));
}

export function withMemberVolume(
  preferences: VoicePreferences,
  memberId: string,
  volume: number,
): VoicePreferences {
  return { ...preferences, memberVolumes: { ...preferences.memberVolumes, [memberId]: volume } };
}
