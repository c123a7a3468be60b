import { createHmac } from 'node:crypto';
import type { IceServer } from '../../../protocol/ice.js';
import type { Config } from '../config/config.js';

export type TurnConfig = NonNullable<Config['turn']>;

/**
 * A TURN server entry with a time-limited credential, as coturn's `use-auth-secret` expects (the
 * "TURN REST API"): username `<expiry unix seconds>:<userId>`, password base64(HMAC-SHA1(secret,
 * username)). coturn checks the HMAC and the expiry itself, so nothing is stored and no password
 * outlives its TTL; the user id in the name shows in coturn's logs.
 */
export function turnServerFor(turn: TurnConfig, userId: string, now = Date.now()): IceServer {
  const expiry = Math.floor(now / 1000) + turn.ttlSeconds;
  const username = `${expiry}:${userId}`;
  const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
  return { urls: turn.urls, username, credential };
}

/**
 * ICE servers for a signed-in user's one-to-one calls: the configured STUN servers (a public one by
 * default) and, with TURN_SECRET, a TURN server with the user's own credential.
 */
export function callIceServers(config: Config, userId: string): IceServer[] {
  return config.turn ? [...config.iceServers, turnServerFor(config.turn, userId)] : config.iceServers;
}

/**
 * ICE servers for a browser's connection to the built-in SFU. The SFU answers on its own (announced)
 * address, so browsers need no STUN for it unless ICE_SERVERS says so; TURN is added for browsers
 * whose network only lets them out through a relay.
 */
export function sfuClientIceServers(config: Config, userId: string): IceServer[] {
  const configured = config.iceServersConfigured ? config.iceServers : [];
  return config.turn ? [...configured, turnServerFor(config.turn, userId)] : configured;
}
