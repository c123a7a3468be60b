import type { QueryClient } from '@tanstack/react-query';
import { WS_CLOSE_CODES } from '../../../../protocol/sockets';
import { AUTH_USER_QUERY_KEY } from '../auth/useAuth';
import type { ChannelSocket } from '../realtime/channel-socket';

/**
 * The server ended this tab's session (logout on another tab, a password change or reset, the
 * account deleted, expiry) and closed `/ws` with the unauthorized code; or the account changed
 * (`account_changed`). Either way the signed-in user is read again: a 401 there is the signed-out
 * state, which ends the signed-in session (see `follow-sign-in.ts`) and shows the landing.
 */
export function followServerSignOut(
  socket: Pick<ChannelSocket, 'onClose' | 'on'>,
  queryClient: QueryClient,
): () => void {
  const readUserAgain = () => {
    queryClient
      .refetchQueries({ queryKey: AUTH_USER_QUERY_KEY })
      .catch((error: unknown) => console.error('Could not read the signed-in user again', error));
  };
  const offClose = socket.onClose((code) => {
    if (code === WS_CLOSE_CODES.unauthorized) readUserAgain();
  });
  const offChanged = socket.on('account_changed', readUserAgain);
  return () => {
    offClose();
    offChanged();
  };
}
