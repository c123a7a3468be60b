import { API_PATHS } from '../../../../protocol/api-paths';
import { useQuery, type QueryFunction } from '@tanstack/react-query';
import type { User } from '../../../../protocol/user';
import { getQueryFn } from '../../lib/query-client';

export const AUTH_USER_QUERY_KEY = [API_PATHS.authUser] as const;

export type AuthState = {
  /** The signed-in user, or null when signed out (or while loading). */
  user: User | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  /** The server could not be reached at all (no response): show the offline state, not the landing. */
  isOffline: boolean;
  retry: () => void;
};

const fetchUserOrNull = getQueryFn<unknown>({ on401: 'returnNull' });

/**
 * 401 means signed out; any other failure also shows the landing, but is worth a log line. A user
 * is checked against its schema, loaded only then: signed-out visitors never download zod.
 */
const fetchAuthUser: QueryFunction<User | null> = async (context) => {
  try {
    const data = await fetchUserOrNull(context);
    if (data === null) return null;
    const { userSchema } = await import('../../../../protocol/user');
    return userSchema.parse(data);
  } catch (error) {
    // An aborted fetch is TanStack cancelling an unobserved query (e.g. StrictMode's remount), not a failure.
    if (!context.signal.aborted)
      console.error('Could not load the signed-in user; showing the sign-in landing.', error);
    throw error;
  }
};

/** The current user from `GET /api/auth/user` (spec §6: signed in exactly when it returns data). */
export function useAuth(): AuthState {
  const { data, isLoading, error, refetch } = useQuery({
    queryKey: AUTH_USER_QUERY_KEY,
    queryFn: fetchAuthUser,
    retry: false,
  });
  const user = data ?? null;
  // fetch() rejects with a TypeError only when no response arrived (offline, server down).
  const isOffline = user === null && error instanceof TypeError;
  return {
    user,
    isLoading,
    isAuthenticated: user !== null,
    isOffline,
    retry: () => void refetch(),
  };
}
