import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import { setupStatusResponseSchema } from '../../../../protocol/setup';
import { userSchema } from '../../../../protocol/user';
import { apiJson, parsedQuery } from '../../lib/query-client';
import { AUTH_USER_QUERY_KEY } from '../auth/useAuth';

export const SETUP_STATUS_KEY = [API_PATHS.setup] as const;

/** `GET /api/setup`: whether this server still waits for its owner. */
export function useSetupStatus(enabled: boolean) {
  return useQuery({ queryKey: SETUP_STATUS_KEY, queryFn: parsedQuery(setupStatusResponseSchema), enabled });
}

/** `POST /api/setup/claim {code}`: on success the caller is the superadmin; refresh who they are. */
export function useClaimServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiJson(userSchema, 'POST', API_PATHS.setupClaim, { code }),
    onSuccess: async (user) => {
      queryClient.setQueryData(AUTH_USER_QUERY_KEY, user);
      // A new Super Admin sees more everywhere (all channels, every user): refetch it all.
      await queryClient.invalidateQueries();
    },
  });
}
