import { API_PATHS } from '../../../../protocol/api-paths';

/**
 * `GET /api/channels/{id}/transmissions` as key parts (the default query GETs them joined by '/').
 * A module of its own: the signed-in session's refresh needs only the key, so the queries load
 * with the first walkie-talkie channel's button.
 */
export const transmissionsKey = (channelId: number) =>
  [API_PATHS.channels, channelId, 'transmissions'] as const;
