import { Fragment, useState } from 'react';
import { Hash, Plus } from 'lucide-react';
import type { Channel } from '../../../../protocol/channels';
import { isAdminTier } from '../../../../protocol/user';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/DropdownMenu';
import { Spinner } from '../../ui/Spinner';
import { useAuth } from '../auth/useAuth';
import { TopBarButton } from '../shell/TopBarButton';
import { TRANSMISSION_TEXTS } from '../transmissions/transmission-texts';
import { groupChannels } from './channel-groups';
import { ChannelMenuItem } from './ChannelMenuItem';
import { CreateChannelDialog } from './CreateChannelDialog';
import { JoinChannelDialog } from './JoinChannelDialog';
import { useCurrentChannel } from './current-channel';
import { useAllChannels } from './useAllChannels';
import { missedElsewhere, useChannelActivity } from './useChannelActivity';
import { useSelectChannel } from './useSelectChannel';
import { useUserChannels } from './useUserChannels';

/**
 * The top bar's Channels dropdown (spec §2): Created by You, Member Of, All Channels (the rest),
 * Create New Channel; each of my channels with its activity, and on the button the transmissions
 * I missed in channels other than the one on screen.
 */
export function ChannelsMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const { user } = useAuth();
  const { channelId } = useCurrentChannel();
  const [open, setOpen] = useState(defaultOpen);
  const [creating, setCreating] = useState(false);
  const [joining, setJoining] = useState<Channel | null>(null);
  const tier = user?.subscriptionTier ?? 'free';
  const seesAll = tier !== 'free';
  const mine = useUserChannels();
  const all = useAllChannels(seesAll);
  const select = useSelectChannel();
  const activity = useChannelActivity(open);
  const missed = missedElsewhere(activity, channelId);

  const myIds = new Set((mine.data ?? []).map((channel) => channel.id));
  const { createdByYou, memberOf, others } = groupChannels(
    mine.data ?? [],
    seesAll ? (all.data ?? []) : [],
    user?.id ?? '',
  );
  const groups: { label: string; channels: Channel[] }[] = [
    { label: 'Created by You', channels: createdByYou },
    { label: 'Member Of', channels: memberOf },
    { label: 'All Channels', channels: others },
  ].filter((group) => group.channels.length > 0);
  const isLoading = mine.isLoading || (seesAll && all.isLoading);
  // Spec §8: the failing query's own text, "Failed to fetch user channels / all channels".
  const failure = mine.error ?? (seesAll ? all.error : null);
  const pick = (channel: Channel) => {
    if (myIds.has(channel.id)) select.mutate({ channel, isMember: true });
    else setJoining(channel);
  };

  return (
    <>
      <DropdownMenu open={open} onOpenChange={setOpen}>
        <DropdownMenuTrigger asChild>
          <TopBarButton
            icon={Hash}
            label="Channels"
            count={missed}
            countLabel={`${TRANSMISSION_TEXTS.missed(missed)} in other channels`}
          />
        </DropdownMenuTrigger>
        <DropdownMenuContent className="w-[min(20rem,calc(100vw-1rem))]" aria-label="Channels">
          {/* A menu must hold menu items (axe `aria-required-children`): status lines are disabled items. */}
          {isLoading ? (
            <DropdownMenuItem variant="status">
              <Spinner size="sm" label="Loading channels" />
            </DropdownMenuItem>
          ) : failure && groups.length === 0 ? (
            <DropdownMenuItem variant="status">
              <span role="alert" className="text-destructive-text">
                {failure.message}
              </span>
            </DropdownMenuItem>
          ) : groups.length === 0 ? (
            <DropdownMenuItem variant="status">No channels available</DropdownMenuItem>
          ) : (
            groups.map((group, index) => (
              <Fragment key={group.label}>
                {index > 0 ? <DropdownMenuSeparator /> : null}
                <DropdownMenuGroup aria-label={group.label}>
                  <DropdownMenuLabel>{group.label}</DropdownMenuLabel>
                  {group.channels.map((channel) => (
                    <ChannelMenuItem
                      key={channel.id}
                      channel={channel}
                      isCurrent={channel.id === channelId}
                      activity={activity.get(channel.id)}
                      onSelect={() => pick(channel)}
                    />
                  ))}
                </DropdownMenuGroup>
              </Fragment>
            ))
          )}
          {failure && groups.length > 0 ? (
            <DropdownMenuItem variant="status">
              <span role="alert" className="text-destructive-text">
                {failure.message}
              </span>
            </DropdownMenuItem>
          ) : null}
          {isAdminTier(tier) ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                onSelect={() => setCreating(true)}
                className="font-medium text-primary"
              >
                <Plus aria-hidden="true" />
                Create New Channel
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      <JoinChannelDialog
        channel={joining}
        isJoining={select.isPending}
        onJoin={(channel) =>
          select.mutate({ channel, isMember: false }, { onSettled: () => setJoining(null) })
        }
        onOpenChange={(open) => {
          if (!open) setJoining(null);
        }}
      />
      <CreateChannelDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(channel) => select.mutate({ channel, isMember: true })}
      />
    </>
  );
}
