import type { QueryClient } from '@tanstack/react-query';
import type { Channel } from '../../../../protocol/channels';
import type { Conversation } from '../../../../protocol/conversations';
import { ALL_CHANNELS_KEY, CONVERSATIONS_KEY, userChannelsKey } from '../channels/channel-queries';
import type { CurrentChannelSource } from '../presence/live-members';
import type { Toast } from '../presence/online-state';
import type { PresenceStore } from '../presence/presence-store';
import { isHeld } from '../presence/transmit-gate';
import type { ChannelSocket } from '../realtime/channel-socket';
import { BUSY_TONE, TALK_PERMIT_TONE, type Tone } from '../voice/tones';
import type { FloorView, FloorViewStore } from './floor-view';

export type FloorRuntimeDeps = {
  socket: Pick<ChannelSocket, 'on'>;
  presence: PresenceStore;
  channel: Pick<CurrentChannelSource, 'get' | 'subscribe'>;
  queryClient: QueryClient;
  userId: string;
  view: FloorViewStore;
  playTone: (tone: Tone) => void;
  /** A short buzz on the grant and on a refusal, where the device can (`navigator.vibrate`). */
  vibrate?: (pattern: VibratePattern) => void;
  toast: (toast: Toast) => void;
};

/** One short buzz: the floor is yours. */
export const GRANT_VIBRATION: VibratePattern = 40;
/** Two buzzes: refused, someone else is talking (felt with the busy tone). */
export const REFUSAL_VIBRATION: VibratePattern = [70, 50, 70];

/** `navigator.vibrate` where the browser has it (not in Safari or on desktops): else nothing. */
export function vibrateIfSupported(pattern: VibratePattern): void {
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function')
    navigator.vibrate(pattern);
}

export const FLOOR_TOASTS = {
  expired: {
    title: 'Transmission ended',
    description: 'The maximum transmission time was reached',
  },
  cutIn: (name: string) => ({ title: 'Cut in', description: `${name} took the floor` }),
  muted: { title: 'You are muted', description: 'A channel admin muted you in this channel' },
} as const;

/**
 * The channel's record in whichever list the tab has polled (the user's own, else all, else the
 * direct conversations, which are walkie-talkie channels of two).
 */
function channelRecord(queryClient: QueryClient, userId: string, channelId: number) {
  const find = (key: readonly unknown[]) =>
    queryClient.getQueryData<Channel[]>(key)?.find((channel) => channel.id === channelId);
  const direct = () =>
    queryClient
      .getQueryData<Conversation[]>(CONVERSATIONS_KEY)
      ?.find((conversation) => conversation.channel.id === channelId)?.channel;
  return find(userChannelsKey(userId)) ?? find(ALL_CHANNELS_KEY) ?? direct();
}

/**
 * Walkie-talkie channels on the client: keeps the presence reducer told whether the
 * selected channel is a walkie-talkie channel (from the polled channel lists) and whether this tab
 * holds its floor (from `floor_state`); plays the talk-permit tone (and a short buzz) when a held
 * press is granted and the busy tone (and two buzzes) when it is refused; and keeps the floor view
 * the screen shows. Returns stop.
 */
export function startFloorRuntime(deps: FloorRuntimeDeps): () => void {
  const { socket, presence, channel, queryClient, userId, view } = deps;
  const vibrate = deps.vibrate ?? (() => undefined);
  let expiry: ReturnType<typeof setTimeout> | undefined;

  const syncTalkMode = () => {
    const channelId = channel.get();
    if (channelId === null) return;
    const record = channelRecord(queryClient, userId, channelId);
    if (!record) return;
    const walkie = record.talkMode === 'walkie';
    if (presence.state.channelId === channelId && presence.state.gate.walkie !== walkie)
      presence.dispatch({ type: 'walkie', channelId, walkie });
  };

  /**
   * The countdown of a transmission this tab was just granted: the channel's maximum from the
   * grant on this tab's clock (the server's `expiresAt` is on its own clock); else what the server
   * gives, as the remaining time.
   */
  const liveWindow = (channelId: number, expiresAt: number | null): FloorView['live'] => {
    const now = Date.now();
    const seconds =
      channelRecord(queryClient, userId, channelId)?.maxTransmissionSeconds ??
      (expiresAt === null ? null : Math.max(1, Math.round((expiresAt - now) / 1000)));
    return seconds === null ? null : { until: now + seconds * 1000, seconds };
  };

  const selectChannel = () => {
    clearTimeout(expiry);
    view.reset(channel.get());
    syncTalkMode();
  };

  const offState = socket.on('floor_state', ({ channelId, holder, expiresAt, ended }) => {
    if (channelId !== channel.get()) return;
    const wasMine = view.state.holder?.id === userId;
    const mine = holder?.id === userId;
    clearTimeout(expiry);
    const cutIn = wasMine && !mine && ended === 'cut_in';
    view.set({
      holder,
      expiresAt,
      deniedAt: cutIn ? Date.now() : null,
      live: mine ? (wasMine ? view.state.live : liveWindow(channelId, expiresAt)) : null,
    });
    // The server's own expiry announces the end; this only covers an instance that died holding it.
    if (holder && expiresAt !== null) {
      expiry = setTimeout(
        () => {
          if (view.state.holder?.id === holder.id) view.set({ holder: null, expiresAt: null });
          presence.dispatch({ type: 'floor', channelId, mine: false });
        },
        Math.max(0, expiresAt - Date.now()) + 1000,
      );
    }
    const holding = isHeld(presence.state.gate);
    presence.dispatch({ type: 'floor', channelId, mine });
    if (mine && !wasMine && holding) {
      deps.playTone(TALK_PERMIT_TONE);
      vibrate(GRANT_VIBRATION);
    }
    if (wasMine && !mine) {
      if (ended === 'expired') deps.toast(FLOOR_TOASTS.expired);
      if (cutIn && holder) {
        deps.toast(FLOOR_TOASTS.cutIn(holder.name));
        deps.playTone(BUSY_TONE);
        vibrate(REFUSAL_VIBRATION);
      }
    }
  });

  const offDenied = socket.on('floor_denied', ({ channelId, reason, holder }) => {
    if (channelId !== channel.get()) return;
    deps.playTone(BUSY_TONE);
    vibrate(REFUSAL_VIBRATION);
    presence.dispatch({ type: 'floor_denied', channelId });
    view.set(reason === 'busy' ? { holder, deniedAt: Date.now() } : { deniedAt: Date.now() });
    if (reason === 'muted') deps.toast(FLOOR_TOASTS.muted);
    // An open channel after all (its mode changed meanwhile): the lists catch up.
    if (reason === 'open_channel') presence.dispatch({ type: 'walkie', channelId, walkie: false });
  });

  const offChannel = channel.subscribe(selectChannel);
  const offPresence = presence.subscribe(() => {
    if (presence.state.channelId !== null && presence.state.channelId === channel.get())
      syncTalkMode();
  });
  const offCache = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated') syncTalkMode();
  });
  selectChannel();
  return () => {
    clearTimeout(expiry);
    offState();
    offDenied();
    offChannel();
    offPresence();
    offCache();
    view.reset(null);
  };
}
