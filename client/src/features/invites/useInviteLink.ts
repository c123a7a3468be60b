import { API_PATHS } from '../../../../protocol/api-paths';
import { useQuery } from '@tanstack/react-query';
import { inviteResponseSchema } from '../../../../protocol/invites';
import { parsedQuery } from '../../lib/query-client';
import { FETCH_ERRORS } from '../channels/channel-queries';

/**
 * `GET /api/invite/generate?channelId=` — a fresh link per channel, fetched while the dialog is
 * open. A failure raises "Failed to fetch invite" (spec §8).
 */
export function useInviteLink(channelId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: [`${API_PATHS.inviteGenerate}?channelId=${channelId ?? 0}`],
    queryFn: parsedQuery(inviteResponseSchema, FETCH_ERRORS.invite),
    enabled: enabled && channelId !== null,
  });
}
