import type { Config } from '../../config/config.js';

/**
 * LiveKit room names: the deployment's prefix (LIVEKIT_ROOM_PREFIX) and the channel id. Several
 * deployments on one LiveKit server each see only their own rooms, in RoomService calls and in
 * webhooks (LiveKit sends every room's events to every configured URL).
 */
export function livekitRoomName(prefix: string, channelId: number): string {
  return `${prefix}${channelId}`;
}

/** The channel of one of our rooms, or undefined for any other room (another deployment's). */
export function channelIdOfLivekitRoom(
  prefix: string,
  roomName: string | undefined,
): number | undefined {
  if (!roomName?.startsWith(prefix)) return undefined;
  const rest = roomName.slice(prefix.length);
  if (!/^[1-9]\d{0,9}$/.test(rest)) return undefined;
  const id = Number(rest);
  return id <= 2_147_483_647 ? id : undefined;
}

/** LiveKit's HTTP API lives at the same host as its WebSocket URL. */
export function livekitHttpUrl(wsUrl: string): string {
  const url = new URL(wsUrl);
  url.protocol =
    url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
  return url.origin;
}

/** Exact origins the page's connect-src must add for voice: LiveKit's when it carries the audio. */
export function voiceConnectSources(config: Config): string[] {
  const { provider, livekit } = config.voice;
  return provider === 'livekit' && livekit.url ? livekitConnectSources(livekit.url) : [];
}

/**
 * What the page's CSP must allow for livekit-client: the signalling WebSocket and the HTTP form of
 * the same origin (it validates a failed join with a GET on `/rtc/validate`). Nothing else.
 */
export function livekitConnectSources(wsUrl: string): string[] {
  const url = new URL(wsUrl);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  return [`${secure ? 'wss' : 'ws'}://${url.host}`, `${secure ? 'https' : 'http'}://${url.host}`];
}
