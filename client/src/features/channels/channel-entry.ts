import { INVITE_URL_PARAMS } from '../../../../protocol/invites';
import { INVITE_TOKEN_STORAGE_KEY, INVITED_CHANNEL_STORAGE_KEY } from '../auth/sign-in';
import { parseChannelId } from './initial-channel';

/** How the user arrived: a channel and an invite token from the address or from before sign-in. */
export type ChannelEntry = { channelId: number | null; token: string | null };

function readStorage(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    // Storage can be disabled (private mode); the address is then the only source.
    return null;
  }
}

/** The address wins over session storage: it is what the user opened just now. */
export function readChannelEntry(search: string, storage: Storage): ChannelEntry {
  const params = new URLSearchParams(search);
  const fromUrl = parseChannelId(params.get(INVITE_URL_PARAMS.channel));
  const urlToken = params.get(INVITE_URL_PARAMS.token);
  if (fromUrl !== null || urlToken) return { channelId: fromUrl, token: urlToken || null };
  return {
    channelId: parseChannelId(readStorage(storage, INVITED_CHANNEL_STORAGE_KEY)),
    token: readStorage(storage, INVITE_TOKEN_STORAGE_KEY) || null,
  };
}

/** Forgets the entry so a reload or a later visit does not redo it (spec §2: parameter removed). */
export function clearChannelEntry(storage: Storage, location: Location, history: History): void {
  try {
    storage.removeItem(INVITED_CHANNEL_STORAGE_KEY);
    storage.removeItem(INVITE_TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored when storage is unavailable.
  }
  const params = new URLSearchParams(location.search);
  if (!params.has(INVITE_URL_PARAMS.channel) && !params.has(INVITE_URL_PARAMS.token)) return;
  params.delete(INVITE_URL_PARAMS.channel);
  params.delete(INVITE_URL_PARAMS.token);
  const search = params.toString();
  history.replaceState(
    history.state,
    '',
    `${location.pathname}${search ? `?${search}` : ''}${location.hash}`,
  );
}

/**
 * The "Connected to channel" toast's description: which channel, and that the user does not hear
 * it yet. The toast shows as the page opens, before anyone can have gone online (decision 048).
 */
export function connectedDescription(channelName: string | undefined): string {
  return `You are in ${channelName ?? 'the channel'}, offline. Go online to listen and talk.`;
}
