import { useQuery } from '@tanstack/react-query';
import type { InviteResponse } from '../../../../protocol/invites';

/** `GET /api/invite/generate?channelId=` — a fresh link per channel, fetched while the dialog is open. */
export function useInviteLink(channelId: number | null, enabled: boolean) {
  return useQuery<InviteResponse>({
    queryKey: [`/api/invite/generate?channelId=${channelId ?? 0}`],
    enabled: enabled && channelId !== null,
  });
}
