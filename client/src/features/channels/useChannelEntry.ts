import { API_PATHS } from '../../../../protocol/api-paths';
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Channel } from '../../../../protocol/channels';
import { acceptInviteResponseSchema } from '../../../../protocol/invites';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { useAuth } from '../auth/useAuth';
import { clearChannelEntry, connectedDescription, readChannelEntry } from './channel-entry';
import { invalidateChannelQueries, userChannelsKey, userChannelsQuery } from './channel-queries';
import { getCurrentChannelId, setCurrentChannelId } from './current-channel';
import { chooseInitialChannel } from './initial-channel';
import { readLastChannel } from './last-channel';
import { serverMessage } from './server-message';
import { useConversations } from './useConversations';
import { useUserChannels } from './useUserChannels';

/** Invite tokens already being redeemed, so StrictMode's double effect posts each only once. */
const redeeming = new Map<string, Promise<number>>();

function redeemInvite(token: string): Promise<number> {
  const existing = redeeming.get(token);
  if (existing) return existing;
  const pending = apiJson(acceptInviteResponseSchema, 'POST', API_PATHS.inviteAccept, {
    token,
  }).then((response) => response.channelId);
  redeeming.set(token, pending);
  return pending;
}

/**
 * Spec §2's "Connected to channel" after an invite or a channel link. This runs as the page opens,
 * when the user is always still OFFLINE (not hearing the channel): the description says so
 * (decision 048).
 */
function connected(channelId: number, channelName: string | undefined): void {
  setCurrentChannelId(channelId);
  clearChannelEntry(window.sessionStorage, window.location, window.history);
  toast({
    title: 'Connected to channel',
    description: connectedDescription(channelName),
  });
}

/**
 * Picks the channel when the main screen opens (spec §4 "Initial channel choice"), redeeming an
 * invite link first (DESIGN §3 "Invites"). Later list changes re-apply the default choice when the
 * current channel is gone or a non-admin has none — never overriding a channel the user picked.
 */
export function useChannelEntry(): void {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const channels = useUserChannels();
  const conversations = useConversations();
  const entryDone = useRef(false);
  const inviteStarted = useRef(false);
  const previousIds = useRef<number[]>([]);
  const tier = user?.subscriptionTier;
  const userId = user?.id;
  const list = channels.data;
  const direct = conversations.data;
  // A failed conversations list must not hold the entry back: then only group channels count.
  const directFailed = conversations.isError;

  // An invite link: redeem it, then connect to its channel regardless of the cached list.
  useEffect(() => {
    if (inviteStarted.current || !user) return;
    const entry = readChannelEntry(window.location.search, window.sessionStorage);
    if (!entry.token) return;
    inviteStarted.current = true;
    redeemInvite(entry.token)
      .then(async (channelId) => {
        await invalidateChannelQueries(queryClient, channelId);
        entryDone.current = true;
        // Fetched if nothing watches the list yet (the screen may still be mounting): the toast
        // names the channel it says the user is in.
        const channels = await queryClient
          .fetchQuery(userChannelsQuery(user.id))
          .catch(() => queryClient.getQueryData<Channel[]>(userChannelsKey(user.id)));
        const joined = channels?.find((channel) => channel.id === channelId);
        connected(channelId, joined?.name);
      })
      .catch((error: unknown) => {
        entryDone.current = true;
        clearChannelEntry(window.sessionStorage, window.location, window.history);
        // The link failed, so fall back to the usual choice among the channels already loaded.
        const loaded = queryClient.getQueryData<Channel[]>(userChannelsKey(user.id)) ?? [];
        if (getCurrentChannelId() === null)
          setCurrentChannelId(
            chooseInitialChannel({
              requestedChannelId: null,
              channels: loaded,
              tier: user.subscriptionTier,
              lastChannelId: readLastChannel(user.id),
            }),
          );
        toast({
          title: 'Invitation failed',
          description: serverMessage(error),
          variant: 'destructive',
        });
      });
  }, [user, queryClient]);

  // No invite token: the requested channel (a group channel or a direct conversation, as a
  // notification's tap names it) or the default, once the user's channels are known.
  useEffect(() => {
    if (entryDone.current || inviteStarted.current || !list || !tier || !userId) return;
    if (!direct && !directFailed) return;
    entryDone.current = true;
    if (getCurrentChannelId() !== null) return;
    const { channelId: requested } = readChannelEntry(
      window.location.search,
      window.sessionStorage,
    );
    const chosen = chooseInitialChannel({
      requestedChannelId: requested,
      channels: list,
      tier,
      lastChannelId: readLastChannel(userId),
      conversations: (direct ?? []).map((conversation) => conversation.channel),
    });
    if (requested !== null && chosen === requested)
      connected(chosen, list.find((channel) => channel.id === chosen)?.name);
    else {
      clearChannelEntry(window.sessionStorage, window.location, window.history);
      setCurrentChannelId(chosen);
    }
  }, [list, direct, directFailed, tier, userId]);

  // Later changes of the list: when the current channel left it (removed, deleted), or a non-admin
  // without a channel got one (added by an admin), apply the default choice again.
  useEffect(() => {
    if (!list || !tier || !entryDone.current) return;
    const ids = list.map((channel) => channel.id);
    const current = getCurrentChannelId();
    const left =
      current !== null && previousIds.current.includes(current) && !ids.includes(current);
    if (left || current === null) {
      setCurrentChannelId(chooseInitialChannel({ requestedChannelId: null, channels: list, tier }));
    }
    previousIds.current = ids;
  }, [list, tier]);
}
