// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WS_CLOSE_CODES } from '../../../../protocol/sockets';
import type { User } from '../../../../protocol/user';
import { createQueryClient } from '../../lib/query-client';
import { fakeChannelSocket } from '../../testing/fake-websocket';
import { AUTH_USER_QUERY_KEY } from '../auth/useAuth';
import { followSignIn } from './follow-sign-in';
import { followServerSignOut } from './signed-out-elsewhere';

const ann: User = {
  id: 'ann',
  email: 'ann@x.test',
  firstName: 'Ann',
  lastName: null,
  profileImageUrl: null,
  subscriptionTier: 'free',
};

describe('a session the server ended', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The app's auth query, answering what `GET /api/auth/user` would say now. */
  const signedIn = async () => {
    const queryClient = createQueryClient();
    const server = { user: ann as User | null, reads: 0 };
    await queryClient.fetchQuery({
      queryKey: AUTH_USER_QUERY_KEY,
      queryFn: () => {
        server.reads++;
        return server.user;
      },
    });
    const log: string[] = [];
    const stopFollowing = followSignIn(queryClient, () =>
      Promise.resolve((user: User) => {
        log.push(`start ${user.id}`);
        return () => log.push(`stop ${user.id}`);
      }),
    );
    await vi.waitFor(() => expect(log).toEqual(['start ann']));
    return { queryClient, server, log, stopFollowing };
  };

  it('goes to the signed-out state when /ws closes with the unauthorized code', async () => {
    const { queryClient, server, log, stopFollowing } = await signedIn();
    const { socket, last } = fakeChannelSocket();
    const stop = followServerSignOut(socket, queryClient);
    socket.open();
    last().serverOpens();
    // Logged out elsewhere: REST now answers 401, and the server closes the socket.
    server.user = null;
    last().serverCloses(WS_CLOSE_CODES.unauthorized);
    await vi.waitFor(() => expect(log).toEqual(['start ann', 'stop ann']));
    expect(queryClient.getQueryData(AUTH_USER_QUERY_KEY)).toBeNull();
    stop();
    socket.close();
    stopFollowing();
  });

  it('stays signed in over a lost connection, and reads the account again when it changed', async () => {
    const { queryClient, server, log, stopFollowing } = await signedIn();
    const { socket, last } = fakeChannelSocket();
    const stop = followServerSignOut(socket, queryClient);
    socket.open();
    last().serverOpens();
    const readsBefore = server.reads;
    last().serverCloses(1006);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.reads).toBe(readsBefore);
    expect(log).toEqual(['start ann']);
    socket.close();
    socket.open();
    last().serverOpens();
    server.user = { ...ann, subscriptionTier: 'member' };
    last().serverSends({ type: 'account_changed' });
    await vi.waitFor(() =>
      expect(queryClient.getQueryData<User>(AUTH_USER_QUERY_KEY)?.subscriptionTier).toBe('member'),
    );
    stop();
    socket.close();
    stopFollowing();
  });
});
