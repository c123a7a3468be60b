import { API_PATHS } from '../../../../protocol/api-paths';
// Types only: protocol/invites.ts loads zod, which the landing never downloads.
import type { InvitePreview } from '../../../../protocol/invites';
import { apiJson, errorStatus, type Parser } from '../../lib/query-client';

/** Checked by hand: the landing loads no zod (signed-out visitors download as little as possible). */
const invitePreviewParser: Parser<InvitePreview> = {
  parse(data) {
    const value = data as Partial<InvitePreview> | null;
    if (typeof value?.channelName !== 'string' || typeof value.inviterName !== 'string') {
      throw new Error('Unexpected invite preview');
    }
    return { channelName: value.channelName, inviterName: value.inviterName };
  },
};

/**
 * `POST /api/invite/preview {token}`: the channel and who invited, for the holder of the link
 * (decision 047); null when the link is invalid or has expired.
 */
export async function fetchInvitePreview(token: string): Promise<InvitePreview | null> {
  try {
    return await apiJson(invitePreviewParser, 'POST', API_PATHS.invitePreview, { token });
  } catch (error) {
    if (errorStatus(error) === 404) return null;
    throw error;
  }
}
