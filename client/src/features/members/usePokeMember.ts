import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { useMutation } from '@tanstack/react-query';
import { pokeResponseSchema } from '../../../../protocol/channels';
import { apiJson, errorStatus } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';

/** `POST .../members/{memberId}/poke`: toasts the server's message; 429 asks to wait (DESIGN §3). */
export function usePokeMember(channelId: number) {
  return useMutation({
    mutationFn: (memberId: string) =>
      apiJson(
        pokeResponseSchema,
        'POST',
        apiPath(API_PATHS.channelMemberPoke, { id: channelId, memberId }),
      ),
    onSuccess: (response) => toast({ title: response.message }),
    onError: (error) =>
      errorStatus(error) === 429
        ? toast({ title: 'Please wait before poking again' })
        : toast({
            title: 'Poke failed',
            description: serverMessage(error),
            variant: 'destructive',
          }),
  });
}
