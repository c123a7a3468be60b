import type { QueryClient } from '@tanstack/react-query';
import type { User } from '../../../../protocol/user';
import { AUTH_USER_QUERY_KEY } from '../auth/useAuth';

type Start = (user: User) => () => void;

/**
 * Starts the signed-in session when `GET /api/auth/user` answers with a user, and ends it when
 * the user signs out or another one signs in. The session's code is loaded only then, so the
 * landing page a visitor sees first never downloads it. Returns the function that stops following.
 */
export function followSignIn(
  queryClient: QueryClient,
  load: () => Promise<Start> = () =>
    import('./signed-in-session').then((module) => module.startSignedInSession),
): () => void {
  let userId: string | null = null;
  let stop: (() => void) | null = null;
  /** Bumped on every change, so a load that finishes late never starts a stale session. */
  let generation = 0;

  const check = () => {
    const user = queryClient.getQueryData<User | null>(AUTH_USER_QUERY_KEY) ?? null;
    if ((user?.id ?? null) === userId) return;
    userId = user?.id ?? null;
    const current = ++generation;
    stop?.();
    stop = null;
    if (!user) return;
    load()
      .then((start) => {
        if (current === generation) stop = start(user);
      })
      .catch((error: unknown) => console.error('The signed-in session did not start', error));
  };

  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    const [path] = event.query.queryKey as readonly unknown[];
    if (path === AUTH_USER_QUERY_KEY[0]) check();
  });
  check();
  return () => {
    unsubscribe();
    generation++;
    stop?.();
    stop = null;
    userId = null;
  };
}
