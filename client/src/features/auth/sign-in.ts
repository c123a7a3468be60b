import { API_PATHS } from '../../../../protocol/api-paths';
import { navigateToServer } from '../../lib/navigation';

/** Spec §2: a channel from an invitation, kept across the sign-in redirect. */
export const INVITED_CHANNEL_STORAGE_KEY = 'invitedChannelId';
/** DESIGN §3 "Invites": the invite link's token, redeemed after sign-in. */
export const INVITE_TOKEN_STORAGE_KEY = 'inviteToken';

/** Keeps `?channel=<id>&invite=<token>` of the current address in session storage for after sign-in. */
export function rememberInvitedChannel(search: string, storage: Storage): void {
  const params = new URLSearchParams(search);
  const channelId = params.get('channel');
  const token = params.get('invite');
  if (!channelId) return;
  try {
    storage.setItem(INVITED_CHANNEL_STORAGE_KEY, channelId);
    if (token) storage.setItem(INVITE_TOKEN_STORAGE_KEY, token);
  } catch (error) {
    // Storage can be full or disabled (private mode); the returnTo address still carries the channel.
    console.warn('Could not remember the invited channel', error);
  }
}

/** The server's login endpoint, asked to bring the user back to where they were. */
export function loginUrl(pathname: string, search: string): string {
  return `${API_PATHS.login}?returnTo=${encodeURIComponent(`${pathname}${search}`)}`;
}

/** Leaves the app for the sign-in provider. */
export function startSignIn(location: Location = window.location): void {
  rememberInvitedChannel(location.search, window.sessionStorage);
  navigateToServer(loginUrl(location.pathname, location.search));
}

/** Leaves the app through the server's logout endpoint. */
export function signOut(): void {
  navigateToServer(API_PATHS.logout);
}
