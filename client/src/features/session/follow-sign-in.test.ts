// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../protocol/user';
import { createQueryClient } from '../../lib/query-client';
import { AUTH_USER_QUERY_KEY } from '../auth/useAuth';
import { followSignIn } from './follow-sign-in';

const user = (id: string): User => ({
  id,
  email: `${id}@x.test`,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  subscriptionTier: 'free',
});

describe('followSignIn', () => {
  it('starts the session for a signed-in user, restarts for another, and stops on sign-out', async () => {
    const queryClient = createQueryClient();
    const log: string[] = [];
    const start = (u: User) => {
      log.push(`start ${u.id}`);
      return () => log.push(`stop ${u.id}`);
    };
    const stopFollowing = followSignIn(queryClient, () => Promise.resolve(start));
    expect(log).toEqual([]);
    queryClient.setQueryData(AUTH_USER_QUERY_KEY, null);
    queryClient.setQueryData(AUTH_USER_QUERY_KEY, user('a'));
    await vi.waitFor(() => expect(log).toEqual(['start a']));
    // Refetching the same user changes nothing.
    queryClient.setQueryData(AUTH_USER_QUERY_KEY, { ...user('a'), firstName: 'Ann' });
    queryClient.setQueryData(AUTH_USER_QUERY_KEY, user('b'));
    await vi.waitFor(() => expect(log).toEqual(['start a', 'stop a', 'start b']));
    queryClient.setQueryData(AUTH_USER_QUERY_KEY, null);
    expect(log.at(-1)).toBe('stop b');
    stopFollowing();
  });

  it('never starts a session for a user who left while its code was loading', async () => {
    const queryClient = createQueryClient();
    const started: string[] = [];
    let release: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    followSignIn(queryClient, async () => {
      await loaded;
      return (u: User) => {
        started.push(u.id);
        return () => undefined;
      };
    });
    queryClient.setQueryData(AUTH_USER_QUERY_KEY, user('a'));
    queryClient.setQueryData(AUTH_USER_QUERY_KEY, null);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([]);
  });
});
