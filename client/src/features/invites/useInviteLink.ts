import { API_PATHS } from '../../../../protocol/api-paths';
import { useQuery } from '@tanstack/react-query';
import { inviteResponseSchema, type InviteResponse } from '../../../../protocol/invites';
import { apiJson } from '../../lib/query-client';
import { FETCH_ERRORS } from '../channels/channel-queries';

/**
 * A fresh link to the channel: `POST /api/invite/generate {channelId}` (minting is a write, so it is
 * a POST, checked for our origin — decision 027). A failure raises "Failed to fetch invite" (spec §8)
 * and the cause is logged.
 */
export async function mintInviteLink(channelId: number): Promise<InviteResponse> {
  try {
    return await apiJson(inviteResponseSchema, 'POST', API_PATHS.inviteGenerate, { channelId });
  } catch (error) {
    console.error(`${FETCH_ERRORS.invite}: POST ${API_PATHS.inviteGenerate}`, error);
    throw new Error(FETCH_ERRORS.invite, { cause: error });
  }
}

/** The invite link of the channel, made once while the dialog is open (the cache keeps it). */
export function useInviteLink(channelId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: [API_PATHS.inviteGenerate, channelId ?? 0],
    queryFn: () => mintInviteLink(channelId ?? 0),
    enabled: enabled && channelId !== null,
  });
}
