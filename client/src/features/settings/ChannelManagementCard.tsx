import { useState } from 'react';
import { Hash, Trash2, Users } from 'lucide-react';
import { useLocation } from 'wouter';
import type { Channel } from '../../../../protocol/channels';
import { isAdminTier } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { useAuth } from '../auth/useAuth';
import { memberCountText } from '../channels/member-count';
import { canManageChannel } from '../channels/channel-permissions';
import { CreateChannelForm } from '../channels/CreateChannelForm';
import { useBilling } from '../server-config/useServerConfig';
import { DeleteChannelDialog } from './DeleteChannelDialog';
import { useManagedChannels } from './useManagedChannels';
import { ADMIN_UPGRADE_PROMPT } from '../upgrade/plans';

export type ChannelManagementCardProps = {
  /** Opens Member Management on this channel. */
  onManageMembers: (channelId: number) => void;
};

/** Spec §2: create form (admins) or an upgrade prompt, then the channels with manage and delete. */
export function ChannelManagementCard({ onManageMembers }: ChannelManagementCardProps) {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const { channels, isLoading, error } = useManagedChannels();
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const canCreate = user !== null && isAdminTier(user.subscriptionTier);
  const billing = useBilling();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Channel Management</CardTitle>
        <CardDescription>Create channels and look after the ones you run.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {canCreate ? (
          <CreateChannelForm />
        ) : !billing ? (
          <p className="rounded-xl bg-muted p-4 text-sm text-muted-foreground">
            Only admins create channels. Ask the owner of this server to make you an admin.
          </p>
        ) : (
          <div className="flex flex-col gap-3 rounded-xl bg-muted p-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">{ADMIN_UPGRADE_PROMPT}</p>
            <Button variant="outline" onClick={() => navigate('/upgrade')}>
              Upgrade to create channels
            </Button>
          </div>
        )}
        {isLoading ? (
          <Spinner label="Loading channels" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive-text">
            {error.message}
          </p>
        ) : channels.length === 0 ? (
          <p className="text-sm text-muted-foreground">No channels available</p>
        ) : (
          <ul className="grid divide-y rounded-xl border">
            {channels.map((channel) => (
              <li key={channel.id} className="flex flex-wrap items-center gap-3 px-3 py-2.5">
                <Hash aria-hidden="true" className="size-4 text-muted-foreground" />
                <div className="grid min-w-0 flex-1">
                  <span className="truncate text-sm font-medium">{channel.name}</span>
                  <span className="text-xs text-muted-foreground">
                    {memberCountText(channel.memberCount)}
                  </span>
                </div>
                <div className="flex gap-1.5">
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Manage members of ${channel.name}`}
                    onClick={() => onManageMembers(channel.id)}
                  >
                    <Users aria-hidden="true" />
                    {/* Icon-only on phones so long channel names keep their room. */}
                    <span className="sr-only sm:not-sr-only">Members</span>
                  </Button>
                  {canManageChannel(channel, user) ? (
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`Delete ${channel.name}`}
                      className="size-8 text-muted-foreground hover:text-destructive-text"
                      onClick={() => setDeleting(channel)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <DeleteChannelDialog
        channel={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </Card>
  );
}
