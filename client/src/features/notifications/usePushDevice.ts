import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import { pushPreferencesSchema, type PushPreferences } from '../../../../protocol/push';
import { apiJson, parsedQuery } from '../../lib/query-client';
import { readPushDevice, sendTestPush, turnOffPush, turnOnPush, type PushDeviceState } from './push-device';

const DEVICE_KEY = ['push-device'] as const;

/** This device's notification state, and turning it on, off, or sending a test. */
export function usePushDevice(enabled: boolean) {
  const queryClient = useQueryClient();
  const device = useQuery<PushDeviceState>({ queryKey: DEVICE_KEY, queryFn: readPushDevice, enabled });
  const settle = (state: PushDeviceState) => queryClient.setQueryData(DEVICE_KEY, state);
  const turnOn = useMutation({
    mutationFn: turnOnPush,
    onSuccess: settle,
    // A refusal in the prompt shows as "blocked" with how to allow it again.
    onError: () => void queryClient.invalidateQueries({ queryKey: DEVICE_KEY }),
  });
  const turnOff = useMutation({ mutationFn: turnOffPush, onSuccess: settle });
  const test = useMutation({ mutationFn: sendTestPush });
  return { device, turnOn, turnOff, test };
}

/** Which kinds of event notify me (all my devices). */
export function usePushPreferences(enabled: boolean) {
  const queryClient = useQueryClient();
  const key = [API_PATHS.pushPreferences];
  const preferences = useQuery({ queryKey: key, queryFn: parsedQuery(pushPreferencesSchema), enabled });
  const save = useMutation({
    mutationFn: (next: PushPreferences) => apiJson(pushPreferencesSchema, 'PUT', API_PATHS.pushPreferences, next),
    onMutate: async (next) => {
      // A read still on its way (Settings just opened) would put back what the switch showed before.
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<PushPreferences>(key);
      queryClient.setQueryData(key, next);
      return { before };
    },
    onError: (_error, _next, context) => queryClient.setQueryData(key, context?.before),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  return { preferences, save };
}
