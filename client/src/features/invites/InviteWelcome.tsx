import { useQuery } from '@tanstack/react-query';
import { Link2Off, Mail } from 'lucide-react';
import { useSearch } from 'wouter';
import { API_PATHS } from '../../../../protocol/api-paths';
import { inviteTokenOf } from './invite-link-token';
import { fetchInvitePreview } from './invite-preview';

/**
 * On the sign-in landing opened from an invite link: "<inviter> invited you to <channel>", or that
 * the link no longer works. Nothing while it loads, when the server cannot say, or without a link.
 */
export function InviteWelcome() {
  const token = inviteTokenOf(useSearch());
  const preview = useQuery({
    queryKey: [API_PATHS.invitePreview, token],
    queryFn: () => fetchInvitePreview(token ?? ''),
    enabled: token !== null,
  });
  if (token === null || !preview.isSuccess) return null;

  if (preview.data === null) {
    return (
      <div className="flex items-start gap-3 rounded-2xl border bg-card p-4">
        <Link2Off aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warning-text" />
        <div className="grid gap-1">
          <p className="font-semibold">This invite link is invalid or has expired</p>
          <p className="text-sm text-muted-foreground">
            You can still sign in. To join the channel, ask for a new link.
          </p>
        </div>
      </div>
    );
  }
  const { inviterName, channelName } = preview.data;
  return (
    <div className="flex items-start gap-3 rounded-2xl border border-primary/40 bg-primary-soft p-4 text-primary-soft-foreground">
      <Mail aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="grid min-w-0 gap-1">
        <p className="font-semibold break-words">
          {inviterName} invited you to {channelName}
        </p>
        <p className="text-sm">Sign in to join the channel.</p>
      </div>
    </div>
  );
}
