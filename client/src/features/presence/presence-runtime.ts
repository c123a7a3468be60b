import type { QueryClient } from '@tanstack/react-query';
import type { SubscriptionTier } from '../../../../protocol/user';
import type { ChannelSocket } from '../realtime/channel-socket';
import { listenHeadset, type MediaSessionLike } from './headset-talk';
import type { HoldControl } from './hold-control';
import { idleTimeoutFor } from './idle-detector';
import { watchIdle } from './idle-watch';
import type { IdleWarningStore } from './idle-warning';
import { applyLivePushes, type CurrentChannelSource } from './live-members';
import type { Toast } from './online-state';
import { listen, type PageEvents } from './page-events';
import { alertOnPokes, type PokeAlert } from './poke-alerts';
import type { PresenceStore } from './presence-store';
import { listenPushToTalkKeys } from './push-to-talk-keys';
import { channelMembersQuery } from '../channels/channel-queries';
import { connectPresence, type MembershipCheck } from './socket-presence';
import { WakeLockKeeper, type WakeLockApi } from './wake-lock';

export type PresenceRuntimeDeps = {
  store: PresenceStore;
  hold: HoldControl;
  socket: ChannelSocket;
  channel: CurrentChannelSource;
  user: { id: string; subscriptionTier: SubscriptionTier };
  queryClient: QueryClient;
  toast: (toast: Toast) => void;
  page: PageEvents;
  wakeLock: WakeLockApi | undefined;
  mediaSession: MediaSessionLike | undefined;
  pokes: Omit<PokeAlert, 'toast'>;
  /** Where the warning shortly before idling goes (the page shows it); none when absent. */
  idleWarning?: IdleWarningStore;
};

/** Spec §4 "Wake lock": held while online, asked for again when the page is visible. */
function keepWakeLock(store: PresenceStore, api: WakeLockApi | undefined, page: PageEvents) {
  const keeper = new WakeLockKeeper(api, () => page.document.visibilityState === 'visible');
  let wanted: boolean | null = null;
  const sync = () => {
    if (store.state.online === wanted) return;
    wanted = store.state.online;
    keeper.setWanted(wanted);
  };
  const offs = [
    store.subscribe(sync),
    listen(page.document, 'visibilitychange', () => {
      if (page.document.visibilityState === 'visible') keeper.pageShown();
    }),
  ];
  sync();
  return () => {
    offs.forEach((off) => off());
    keeper.setWanted(false);
  };
}

/** A fresh member list (never the cache: the user may have been removed meanwhile). */
function membershipCheck(queryClient: QueryClient, userId: string): MembershipCheck {
  return async (channelId) => {
    const members = await queryClient.fetchQuery({
      ...channelMembersQuery(channelId),
      staleTime: 0,
    });
    return members.some((member) => member.userId === userId);
  };
}

/**
 * The signed-in tab's presence, above the routes and without React: the socket membership and
 * talking of the online reducer, live member and poke pushes, idle detection, the wake lock, the
 * Space key and (opted in) the headset button. Nothing here depends on which screen is open, so
 * ONLINE survives Settings and Upgrade. Returns the function that stops it all (sign-out).
 */
export function startPresenceRuntime(deps: PresenceRuntimeDeps): () => void {
  const { store, hold, socket, channel, user, page } = deps;
  const stops = [
    connectPresence(
      store,
      socket,
      channel,
      user.id,
      deps.toast,
      membershipCheck(deps.queryClient, user.id),
    ),
    applyLivePushes(socket, deps.queryClient, user.id, store, channel),
    alertOnPokes(socket, { ...deps.pokes, toast: deps.toast }),
    watchIdle(store, idleTimeoutFor(user.subscriptionTier), page, deps.idleWarning),
    keepWakeLock(store, deps.wakeLock, page),
    listenPushToTalkKeys(hold, page.window),
    listenHeadset(store, hold, deps.mediaSession),
  ];
  return () => {
    hold.cancel();
    // Presence first stops talking and leaves the channel, while the socket is still open.
    for (const stop of stops) stop();
  };
}
