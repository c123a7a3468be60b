import { useSyncExternalStore } from 'react';
import type { ChannelChanged } from '../../../../protocol/sockets';
import type { ToastOptions } from '../../ui/toast-store';
import type { ChannelSocket } from '../realtime/channel-socket';

/** Who muted the signed-in user, per channel, as the server told this tab (`channel_changed`). */
export type AdminMuter = { id: string; name: string };

export const ADMIN_MUTE_TEXTS = {
  mutedBy: (name: string) => `Muted by ${name}`,
  /** After a reload the push is gone; the member list still says the user is muted. */
  mutedByUnknown: 'Muted by a channel admin',
  mutedDetail: 'No one in this channel hears you until an admin unmutes you.',
  unmuted: 'You can talk again',
  unmutedBy: (name: string) => `Unmuted by ${name}`,
} as const;

const muters = new Map<number, AdminMuter>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

/** The admin who muted the user in this channel, when this tab heard it. */
export function adminMuterOf(channelId: number): AdminMuter | undefined {
  return muters.get(channelId);
}

export function useAdminMuter(channelId: number | null): AdminMuter | undefined {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  return channelId === null ? undefined : muters.get(channelId);
}

/** Applies one push about the user's own mute; answers the toast to show, if any. */
export function noteOwnMute(message: ChannelChanged, selfId: string): ToastOptions | undefined {
  if (message.change !== 'member_muted' || message.userId !== selfId) return undefined;
  if (message.muted === undefined) return undefined;
  if (message.muted) {
    if (message.by) muters.set(message.channelId, message.by);
    else muters.delete(message.channelId);
    changed();
    return {
      title: message.by
        ? ADMIN_MUTE_TEXTS.mutedBy(message.by.name)
        : ADMIN_MUTE_TEXTS.mutedByUnknown,
      description: ADMIN_MUTE_TEXTS.mutedDetail,
      variant: 'destructive',
    };
  }
  muters.delete(message.channelId);
  changed();
  return {
    title: ADMIN_MUTE_TEXTS.unmuted,
    ...(message.by ? { description: ADMIN_MUTE_TEXTS.unmutedBy(message.by.name) } : {}),
  };
}

/**
 * Tells the signed-in user when an admin mutes or unmutes them (a toast naming the admin) and keeps
 * who did it for the note on their own controls. Returns stop; forgets the muters on stop (sign-out).
 */
export function tellAdminMutes(
  socket: Pick<ChannelSocket, 'on'>,
  selfId: string,
  toast: (toast: ToastOptions) => unknown,
): () => void {
  const off = socket.on('channel_changed', (message) => {
    const notice = noteOwnMute(message, selfId);
    if (notice) toast(notice);
  });
  return () => {
    off();
    muters.clear();
    changed();
  };
}
