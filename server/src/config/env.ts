import { createECDH } from 'node:crypto';
import { z } from 'zod';
import { iceServerListSchema } from '../../../protocol/ice.js';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const url = (what: string) =>
  optionalString.refine((v) => v === undefined || URL.canParse(v), `must be a URL (${what})`);

const emailList = optionalString.transform((v) =>
  (v ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean),
);

const iceServers = optionalString.transform((v, ctx) => {
  if (v === undefined) return undefined;
  try {
    const parsed = iceServerListSchema.safeParse(JSON.parse(v));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'must be a JSON array of at most 16 {urls, username?, credential?}' });
  return z.NEVER;
});

/**
 * Which X-Forwarded-For hops to believe. Never "all": the left-most entries are whatever the client
 * sent, so a rotating header would give every request a new address. `true` means one proxy in front
 * (the address it appended is the client); a number is that many proxies; otherwise the proxies'
 * addresses or CIDR ranges, comma-separated.
 */
const trustProxy = optionalString.transform((v, ctx): false | number | string => {
  if (v === undefined || v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
  if (entries.length > 0 && entries.every((e) => /^[\d.:a-fA-F]+(\/\d{1,3})?$/.test(e) || ['loopback', 'linklocal', 'uniquelocal'].includes(e))) {
    return entries.join(',');
  }
  ctx.addIssue({ code: 'custom', message: 'must be true, false, a number of proxies, or proxy addresses/CIDRs' });
  return z.NEVER;
});

const turnUrls = optionalString.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const urls = v.split(',').map((u) => u.trim()).filter(Boolean);
  if (urls.length > 0 && urls.length <= 8 && urls.every((u) => /^turns?:[^\s]+$/.test(u))) return urls;
  ctx.addIssue({ code: 'custom', message: 'must be comma-separated turn: or turns: URLs (at most 8)' });
  return z.NEVER;
});

const port = (fallback: number) =>
  optionalString
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .refine((n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'must be a port number 0-65535');

/** base64url of exactly `bytes` bytes (VAPID keys: a 65-byte uncompressed P-256 point, a 32-byte scalar). */
const base64urlBytes = (bytes: number, what: string) =>
  optionalString.refine(
    (v) => v === undefined || (/^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, 'base64url').length === bytes),
    `must be base64url of ${bytes} bytes (${what}; \`npx web-push generate-vapid-keys\` makes a pair)`,
  );

/** A TURN credential's default and longest lifetime (TURN_TTL). */
export const TURN_TTL_DEFAULT_SECONDS = 3_600;
export const TURN_TTL_MAX_SECONDS = 3_600;

/** Every setting of DESIGN.md §4, all optional: the embedded defaults make a working product. */
export const envSchema = z
  .object({
    PORT: port(5000),
    HOST: optionalString.default('0.0.0.0'),
    PUBLIC_URL: url('the address users open, e.g. https://chirp.example.com'),
    DATABASE_URL: url('postgres://user:pass@host:5432/db'),
    DATA_DIR: optionalString.default('./data'),
    REDIS_URL: url('redis://host:6379'),
    /** Key and channel prefix, so several Chirp deployments (or test runs) can share one Redis. */
    REDIS_PREFIX: optionalString.default('chirp:'),
    SESSION_SECRET: optionalString.refine(
      (v) => v === undefined || v.length >= 32,
      'must be at least 32 characters',
    ),
    OIDC_ISSUER_URL: url('the OpenID Connect issuer'),
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    SUPERADMIN_EMAILS: emailList,
    VOICE_PROVIDER: optionalString.pipe(z.enum(['embedded', 'livekit']).default('embedded')),
    LIVEKIT_URL: url('wss://your-livekit-host'),
    LIVEKIT_API_KEY: optionalString,
    LIVEKIT_API_SECRET: optionalString,
    /**
     * Room names are this prefix plus the channel id, so several deployments can share one LiveKit.
     * It ends in a non-digit, so no deployment's room name can be read as another's.
     */
    LIVEKIT_ROOM_PREFIX: optionalString
      .default('channel-')
      .refine(
        (v) => /^[A-Za-z0-9_.-]{0,63}[A-Za-z_.-]$/.test(v),
        'must be 1-64 letters, digits, "_", "." or "-", ending in a non-digit',
      ),
    /**
     * The built-in SFU cannot span instances: with several instances on one database it refuses to
     * start unless the operator routes all of /rtc to one instance and says so here (README).
     */
    VOICE_PINNED: optionalString.transform((v) => v === 'true' || v === '1'),
    ICE_SERVERS: iceServers,
    RTC_PORT_MIN: port(0),
    RTC_PORT_MAX: port(0),
    RTC_ANNOUNCED_IP: optionalString,
    /** coturn's static-auth-secret (TURN REST API): Chirp hands out time-limited credentials. */
    TURN_SECRET: optionalString.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
    TURN_URLS: turnUrls,
    /**
     * Seconds a TURN credential lasts. coturn cannot revoke one, so this is how long a signed-out or
     * deleted user can still relay: at most an hour. Clients fetch fresh ones whenever they reconnect.
     */
    TURN_TTL: optionalString
      .transform((v) => (v === undefined ? TURN_TTL_DEFAULT_SECONDS : Number(v)))
      .refine(
        (n) => Number.isInteger(n) && n >= 60 && n <= TURN_TTL_MAX_SECONDS,
        `must be seconds between 60 and ${TURN_TTL_MAX_SECONDS}`,
      ),
    LOG_LEVEL: optionalString.pipe(
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    TRUST_PROXY: trustProxy,
    /** Who may create an account at the built-in provider (DESIGN §3 "Users and roles"). */
    SIGNUP: optionalString.pipe(z.enum(['open', 'invite']).default('open')),
    /** Bearer token for GET /metrics; unset = only this machine may read them. */
    METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
    /** `off` for a family server: no metering limits and no upgrade offers. */
    BILLING: optionalString.pipe(z.enum(['on', 'off']).default('on')),
    /** Hours a walkie-talkie channel keeps its transmissions (default 24). */
    TRANSMISSION_RETENTION_HOURS: optionalString
      .transform((v) => (v === undefined ? 24 : Number(v)))
      .refine((n) => Number.isFinite(n) && n > 0 && n <= 24 * 365, 'must be hours between 0 and 8760'),
    /** The most audio one channel keeps, in MiB; the oldest transmissions go first (default 100). */
    TRANSMISSION_MAX_MB_PER_CHANNEL: optionalString
      .transform((v) => (v === undefined ? 100 : Number(v)))
      .refine((n) => Number.isFinite(n) && n > 0 && n <= 1_000_000, 'must be MiB above 0'),
    /** Where kept transmissions' audio lives: the database (default) or an S3-compatible bucket. */
    TRANSMISSIONS_STORE: optionalString.pipe(z.enum(['database', 's3']).default('database')),
    /** The S3-compatible server (unset: AWS S3 in S3_REGION). */
    S3_ENDPOINT: url('https://s3.example.com'),
    S3_BUCKET: optionalString,
    S3_REGION: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    /** Bucket in the path (most self-hosted servers) rather than in the host name (AWS's default). */
    S3_FORCE_PATH_STYLE: optionalString.pipe(z.enum(['true', 'false']).default('false')).transform((v) => v === 'true'),
    /** Keys start with this, so deployments can share a bucket (each sweeps only its own). */
    S3_PREFIX: optionalString
      .default('transmissions/')
      .refine((v) => /^[A-Za-z0-9_.\-/]{0,200}$/.test(v) && !v.startsWith('/'), 'must be letters, digits, "_", ".", "-" or "/", not starting with "/"'),
    /** Web Push signing keys; unset, the server makes a pair once and keeps it in the database. */
    VAPID_PUBLIC_KEY: base64urlBytes(65, 'a P-256 public key'),
    VAPID_PRIVATE_KEY: base64urlBytes(32, 'a P-256 private key'),
    /** Who push services may contact about this server: `mailto:` or `https:` (default: PUBLIC_URL or a mailto). */
    VAPID_SUBJECT: optionalString.refine(
      (v) => v === undefined || /^(mailto:[^\s]+|https:\/\/[^\s]+)$/.test(v),
      'must be a mailto: address or an https: URL',
    ),
    TERMS_URL: url('the Terms of Service page, e.g. https://example.com/terms'),
    PRIVACY_URL: url('the Privacy Policy page, e.g. https://example.com/privacy'),
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER_URL && !env.OIDC_CLIENT_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_CLIENT_ID'],
        message: 'is required when OIDC_ISSUER_URL is set',
      });
    }
    if (Boolean(env.TURN_SECRET) !== Boolean(env.TURN_URLS)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.TURN_SECRET ? 'TURN_URLS' : 'TURN_SECRET'],
        message: 'is required with the other TURN setting (TURN_SECRET and TURN_URLS go together)',
      });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
        message: 'is required with the other VAPID key (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together)',
      });
    }
    if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY && !vapidPairMatches(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['VAPID_PUBLIC_KEY'], message: 'is not the public key of VAPID_PRIVATE_KEY' });
    }
    if (env.TRANSMISSIONS_STORE === 's3') {
      for (const name of ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when TRANSMISSIONS_STORE=s3' });
      }
    }
    if (env.RTC_PORT_MIN > env.RTC_PORT_MAX) {
      ctx.addIssue({ code: 'custom', path: ['RTC_PORT_MIN'], message: 'must not exceed RTC_PORT_MAX' });
    }
  });

/** Whether the P-256 private key's public point is the given one (a mismatch fails every push later). */
function vapidPairMatches(publicKey: string, privateKey: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey('base64url') === publicKey;
  } catch {
    return false; // not a valid scalar for the curve
  }
}

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws one line per problem, naming the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (issue) => `Invalid configuration: ${issue.path.join('.') || '(environment)'} ${issue.message}`,
  );
  throw new ConfigError(lines.join('\n'));
}
