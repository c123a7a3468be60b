import { Link2Off } from 'lucide-react';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Spinner } from '../../ui/Spinner';
import { useChannelInvites, useRevokeInvite } from './useChannelInvites';

const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/**
 * For the channel's admin: every live invite link, who made it and until when, with Revoke. A revoked
 * link (like one whose maker left or was removed) no longer lets anyone in.
 */
export function LiveInvitesList({ channelId, enabled }: { channelId: number; enabled: boolean }) {
  const invites = useChannelInvites(channelId, enabled);
  const revoke = useRevokeInvite(channelId);

  return (
    // A plain heading, not a labelled region: "Invite link" must keep naming only the link's field.
    <div className="grid gap-2">
      <h3 className="text-sm font-semibold">Active invite links</h3>
      {invites.isLoading ? (
        <Spinner label="Loading invite links" />
      ) : invites.isError ? (
        <p className="text-sm text-destructive-text">Could not load the invite links.</p>
      ) : (invites.data ?? []).length === 0 ? (
        <p className="text-sm text-muted-foreground">No active invite links.</p>
      ) : (
        <ul className="grid max-h-48 divide-y overflow-y-auto rounded-xl border">
          {(invites.data ?? []).map((invite) => {
            const busy = revoke.isPending && revoke.variables === invite.id;
            const label = `Link by ${invite.createdBy.name || 'a member'}`;
            return (
              <li key={invite.id} className="flex items-center gap-3 px-3 py-2">
                <div className="grid min-w-0 flex-1">
                  <span className="truncate text-sm">{label}</span>
                  <span className="text-xs text-muted-foreground">
                    Made {day.format(new Date(invite.createdAt))} · works until{' '}
                    {day.format(new Date(invite.expiresAt))}
                  </span>
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  aria-label={`Revoke ${label.toLowerCase()} made ${day.format(new Date(invite.createdAt))}`}
                  onClick={() => revoke.mutate(invite.id)}
                >
                  {busy ? <BusyIcon /> : <Link2Off aria-hidden="true" />}
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
