import { resolve } from 'node:path';
import type { IceServer } from '../../../protocol/ice.js';
import type { Env } from './env.js';
import { loadSessionSecret } from './session-secret.js';

/** The validated, resolved configuration the rest of the server reads. Nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  publicUrl: URL;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  redisPrefix: string;
  sessionSecret: string;
  oidc: { issuerUrl: string; clientId: string; clientSecret: string | undefined; builtIn: boolean };
  superadminEmails: string[];
  /** `invite`: the built-in provider creates accounts only for invitees and listed e-mails. */
  signup: 'open' | 'invite';
  voice: {
    provider: 'embedded' | 'livekit';
    livekit: {
      url: string | undefined;
      apiKey: string | undefined;
      apiSecret: string | undefined;
      /** Room name = prefix + channel id (LIVEKIT_ROOM_PREFIX, default `channel-`). */
      roomPrefix: string;
    };
    rtcPortRange: { min: number; max: number } | undefined;
    announcedIp: string | undefined;
    /** VOICE_PINNED: every instance's /rtc traffic reaches one instance (built-in SFU, several instances). */
    pinned: boolean;
  };
  iceServers: IceServer[];
  /** Whether ICE_SERVERS was set; the built-in SFU uses no STUN server unless told to. */
  iceServersConfigured: boolean;
  /** TURN with time-limited credentials (TURN REST API), for calls and the SFU's browsers. */
  turn: { secret: string; urls: string[]; ttlSeconds: number } | undefined;
  logLevel: string;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses (never "trust all"). */
  trustProxy: false | number | string;
  /** Bearer token for `/metrics`; without it only loopback requests may read them. */
  metricsToken: string | undefined;
  /** Metering limits and upgrade offers; off on a self-hosted family server (BILLING=off). */
  billing: boolean;
  /** The operator's own Terms and Privacy pages; absent ones are the server's defaults (legal/). */
  legal: { termsUrl: string | undefined; privacyUrl: string | undefined };
  /**
   * Walkie-talkie transmissions kept for replay: where their audio lives, how long, how much per
   * channel, and the folder earlier versions kept it in (moved into the store at start).
   */
  transmissions: {
    store: TransmissionsStoreConfig;
    legacyDir: string;
    retentionHours: number;
    maxBytesPerChannel: number;
  };
  /**
   * Web Push: VAPID keys from the environment (otherwise the database's pair, see push/vapid-keys.ts)
   * and the contact push services see (VAPID_SUBJECT, else the https public URL, else a mailto).
   */
  push: { keys: { publicKey: string; privateKey: string } | undefined; subject: string };
  /** Development mode serves the client through Vite with hot reload. */
  dev: boolean;
}

/** TRANSMISSIONS_STORE and, for `s3`, the bucket's settings. */
export type TransmissionsStoreConfig =
  | { backend: 'database' }
  | {
      backend: 's3';
      endpoint: string | undefined;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
      prefix: string;
    };

export const BUILT_IN_CLIENT_ID = 'chirp-web';

/** Browsers in 1:1 calls need a STUN server to find their public address (spec §7). */
const DEFAULT_ICE_SERVERS: IceServer[] = [{ urls: 'stun:stun.l.google.com:19302' }];

export function resolveConfig(env: Env, options: { dev?: boolean } = {}): Config {
  const dataDir = resolve(env.DATA_DIR);
  const publicUrl = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`);
  const builtIn = !env.OIDC_ISSUER_URL;
  const sessionSecret = loadSessionSecret(env.SESSION_SECRET, dataDir);
  return {
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    databaseUrl: env.DATABASE_URL,
    dataDir,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    sessionSecret,
    oidc: builtIn
      ? {
          issuerUrl: new URL('/oidc', publicUrl).href,
          clientId: BUILT_IN_CLIENT_ID,
          clientSecret: undefined,
          builtIn,
        }
      : {
          issuerUrl: env.OIDC_ISSUER_URL!,
          clientId: env.OIDC_CLIENT_ID!,
          clientSecret: env.OIDC_CLIENT_SECRET,
          builtIn,
        },
    superadminEmails: env.SUPERADMIN_EMAILS,
    signup: env.SIGNUP,
    voice: {
      provider: env.VOICE_PROVIDER,
      livekit: {
        url: env.LIVEKIT_URL,
        apiKey: env.LIVEKIT_API_KEY,
        apiSecret: env.LIVEKIT_API_SECRET,
        roomPrefix: env.LIVEKIT_ROOM_PREFIX,
      },
      rtcPortRange:
        env.RTC_PORT_MIN && env.RTC_PORT_MAX
          ? { min: env.RTC_PORT_MIN, max: env.RTC_PORT_MAX }
          : undefined,
      announcedIp: env.RTC_ANNOUNCED_IP,
      pinned: env.VOICE_PINNED,
    },
    iceServers: env.ICE_SERVERS ?? DEFAULT_ICE_SERVERS,
    iceServersConfigured: env.ICE_SERVERS !== undefined,
    turn:
      env.TURN_SECRET && env.TURN_URLS
        ? { secret: env.TURN_SECRET, urls: env.TURN_URLS, ttlSeconds: env.TURN_TTL }
        : undefined,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    metricsToken: env.METRICS_TOKEN,
    billing: env.BILLING === 'on',
    legal: { termsUrl: env.TERMS_URL, privacyUrl: env.PRIVACY_URL },
    transmissions: {
      store:
        env.TRANSMISSIONS_STORE === 's3'
          ? {
              backend: 's3',
              endpoint: env.S3_ENDPOINT,
              bucket: env.S3_BUCKET!,
              region: env.S3_REGION!,
              accessKeyId: env.S3_ACCESS_KEY_ID!,
              secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
              forcePathStyle: env.S3_FORCE_PATH_STYLE,
              prefix: env.S3_PREFIX,
            }
          : { backend: 'database' },
      legacyDir: resolve(dataDir, 'transmissions'),
      retentionHours: env.TRANSMISSION_RETENTION_HOURS,
      maxBytesPerChannel: Math.floor(env.TRANSMISSION_MAX_MB_PER_CHANNEL * 1024 * 1024),
    },
    push: {
      keys:
        env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
          ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
          : undefined,
      subject: env.VAPID_SUBJECT ?? defaultVapidSubject(publicUrl),
    },
    dev: options.dev ?? false,
  };
}

/** Push services want a way to reach the operator: the site itself when it is https, else a mailto. */
function defaultVapidSubject(publicUrl: URL): string {
  return publicUrl.protocol === 'https:' ? publicUrl.origin : `mailto:chirp@${publicUrl.hostname}`;
}
