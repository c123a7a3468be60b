import { createHmac } from 'node:crypto';
import * as oidc from 'openid-client';
import { API_PATHS } from '../../../protocol/api-paths.js';
import type { Config } from '../config/config.js';
import { INTERNAL_HEADER, internalKey } from './internal-request.js';

/** The built-in provider's client secret: derived from the session secret, never stored anywhere. */
export function builtInClientSecret(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('chirp built-in oidc client').digest('base64url');
}

export interface RelyingParty {
  configuration(): Promise<oidc.Configuration>;
  callbackUrl: URL;
}

/**
 * The OpenID Connect client. Discovery is lazy (the built-in provider lives in this same server, which
 * is not listening yet at boot) and retried on the next sign-in if it fails.
 *
 * For the built-in provider, server-to-server calls go over loopback to this process rather than to
 * the public address, which may be a proxy the server cannot reach from inside.
 */
export function createRelyingParty(config: Config, localPort: () => number): RelyingParty {
  let pending: Promise<oidc.Configuration> | undefined;
  const callbackUrl = new URL(API_PATHS.callback, config.publicUrl);

  const discover = async () => {
    const issuer = new URL(config.oidc.issuerUrl);
    const secret = config.oidc.builtIn
      ? builtInClientSecret(config.sessionSecret)
      : config.oidc.clientSecret;
    const auth = secret ? oidc.ClientSecretBasic(secret) : oidc.None();
    const options: oidc.DiscoveryRequestOptions = {};
    if (issuer.protocol === 'http:') options.execute = [oidc.allowInsecureRequests];
    if (config.oidc.builtIn) {
      const publicOrigin = config.publicUrl.origin;
      const key = internalKey(config.sessionSecret);
      options[oidc.customFetch] = (url, init) => {
        if (!url.startsWith(publicOrigin)) return fetch(url, init);
        const headers = new Headers(init.headers);
        headers.set(INTERNAL_HEADER, key);
        return fetch(`http://127.0.0.1:${localPort()}${url.slice(publicOrigin.length)}`, { ...init, headers });
      };
    }
    return oidc.discovery(issuer, config.oidc.clientId, undefined, auth, options);
  };

  return {
    callbackUrl,
    configuration() {
      pending ??= discover().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
  };
}
