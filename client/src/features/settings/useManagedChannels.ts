import type { Channel } from '../../../../protocol/channels';
import { useAuth } from '../auth/useAuth';
import { useAllChannels } from '../channels/useAllChannels';
import { useUserChannels } from '../channels/useUserChannels';

/** The channels Settings lists: every channel for a superadmin, the user's own for everyone else. */
export function useManagedChannels(): {
  channels: Channel[];
  isLoading: boolean;
  /** Spec §8: "Failed to fetch user channels" or "Failed to fetch all channels". */
  error: Error | null;
} {
  const { user } = useAuth();
  const isSuperadmin = user?.subscriptionTier === 'superadmin';
  const mine = useUserChannels();
  const all = useAllChannels(isSuperadmin);
  const source = isSuperadmin ? all : mine;
  return { channels: source.data ?? [], isLoading: source.isLoading, error: source.error };
}
