import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Helmet with a CSP that allows the app's own sockets (ws/wss on this host), the voice server's
 * origin when it is elsewhere (LiveKit: `voiceConnectSources`), inline styles (Radix positions
 * popovers with style attributes) and media from blobs (remote audio streams).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  publicUrl: URL,
  dev: boolean,
  voiceConnectSources: string[] = [],
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { directives: cspDirectives(publicUrl, dev, [], voiceConnectSources) },
    // Voice needs cross-origin-isolation off (AudioWorklet and WebRTC work without it).
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: publicUrl.protocol === 'https:',
  });
}

/**
 * The app's CSP; a route may allow one more exact inline script by its hash. `connectSources` are
 * exact origins added to connect-src (nothing wider: no scheme-only or wildcard sources).
 */
export function cspDirectives(
  publicUrl: URL,
  dev: boolean,
  scriptHashes: string[] = [],
  connectSources: string[] = [],
) {
  const wsOrigin = `${publicUrl.protocol === 'https:' ? 'wss' : 'ws'}://${publicUrl.host}`;
  return {
    defaultSrc: ["'self'"],
    scriptSrc: [
      ...(dev ? ["'self'", "'unsafe-inline'"] : ["'self'"]),
      ...scriptHashes.map((h) => `'sha256-${h}'`),
    ],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    mediaSrc: ["'self'", 'blob:', 'data:'],
    connectSrc: ["'self'", wsOrigin, ...connectSources, ...(dev ? ['ws:'] : [])],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: publicUrl.protocol === 'https:' ? [] : null,
  };
}
