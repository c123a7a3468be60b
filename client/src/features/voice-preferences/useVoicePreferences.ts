import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_VOICE_PREFERENCES,
  memberVolumeOf,
  voicePreferencesSchema,
} from '../../../../protocol/voice-preferences';
import { apiJson, apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';
import {
  VOICE_PREFERENCES_KEY,
  patchVoicePreferences,
  voicePreferencesQuery,
  withMemberVolume,
} from './voice-preferences-query';

/**
 * One member's volume for the signed-in listener: `preview` moves the audio at once (the cache the
 * voice runtime follows), `save` keeps it on the server. A failed save puts back what the server has.
 */
export function useMemberVolume(memberId: string) {
  const queryClient = useQueryClient();
  const { data } = useQuery(voicePreferencesQuery);
  const save = useMutation({
    mutationFn: (volume: number) =>
      apiRequest('PUT', apiPath(API_PATHS.memberVolume, { memberId }), { volume }),
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: VOICE_PREFERENCES_KEY });
      toast({
        title: 'Failed to save volume',
        description: serverMessage(error),
        variant: 'destructive',
      });
    },
  });
  const preview = (volume: number) => {
    // A refetch landing mid-drag would snap the slider back to the old value.
    void queryClient.cancelQueries({ queryKey: VOICE_PREFERENCES_KEY });
    patchVoicePreferences(queryClient, (current) => withMemberVolume(current, memberId, volume));
  };
  return {
    volume: memberVolumeOf(data ?? DEFAULT_VOICE_PREFERENCES, memberId),
    preview,
    save: (volume: number) => {
      preview(volume);
      save.mutate(volume);
    },
  };
}

/** The roger beep switch (Settings), off by default and until the server answered. */
export function useRogerBeep() {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(voicePreferencesQuery);
  const save = useMutation({
    mutationFn: (rogerBeep: boolean) =>
      apiJson(voicePreferencesSchema, 'PATCH', API_PATHS.voicePreferences, { rogerBeep }),
    onMutate: async (rogerBeep) => {
      await queryClient.cancelQueries({ queryKey: VOICE_PREFERENCES_KEY });
      patchVoicePreferences(queryClient, (current) => ({ ...current, rogerBeep }));
    },
    onSuccess: (preferences) => queryClient.setQueryData(VOICE_PREFERENCES_KEY, preferences),
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: VOICE_PREFERENCES_KEY });
      toast({
        title: 'Failed to save roger beep',
        description: serverMessage(error),
        variant: 'destructive',
      });
    },
  });
  return {
    rogerBeep: data?.rogerBeep ?? false,
    isLoading: isPending,
    setRogerBeep: (on: boolean) => save.mutate(on),
  };
}
