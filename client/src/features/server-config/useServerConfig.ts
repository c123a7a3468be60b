import { useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import type { ServerConfig } from '../../../../protocol/server-config';

/** `GET /api/config` (public): what this server offers. */
export function useServerConfigQuery() {
  return useQuery<ServerConfig>({ queryKey: [API_PATHS.serverConfig] });
}

/** What this server offers; undefined until it has loaded (or when it could not be loaded). */
export function useServerConfig(): ServerConfig | undefined {
  return useServerConfigQuery().data;
}

/**
 * Whether plans, usage alerts and upgrade offers are shown. Only once the server said so: a family
 * server (BILLING=off) never flashes an upgrade button while its configuration loads.
 */
export function useBilling(): boolean {
  return useServerConfig()?.billing === true;
}
