import { z } from 'zod';

/** `GET /api/push/public-key`: the server's VAPID public key, for `pushManager.subscribe`'s applicationServerKey. */
export const pushPublicKeySchema = z.object({
  /** base64url of the 65-byte uncompressed P-256 point. */
  publicKey: z.string().length(87).regex(/^[A-Za-z0-9_-]{87}$/),
});
export type PushPublicKey = z.infer<typeof pushPublicKeySchema>;

/** base64url of exactly `bytes` bytes; the `=` padding some browsers add is dropped. */
const base64urlOf = (bytes: number) => {
  const chars = Math.ceil((bytes * 4) / 3);
  const padding = (4 - (chars % 4)) % 4;
  return z
    .string()
    .max(chars + padding)
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}={0,${padding}}$`), `must be base64url of ${bytes} bytes`)
    .transform((v) => v.replace(/=+$/, ''));
};

/** A push service's endpoint: https only, as browsers hand out (RFC 8030 requires TLS). */
export const pushEndpointSchema = z.url({ protocol: /^https$/ }).max(2048);

/**
 * `POST /api/push/subscribe`: what `PushSubscription.toJSON()` gives. `p256dh` is the device's
 * uncompressed P-256 public key (65 bytes), `auth` its 16-byte authentication secret (RFC 8291).
 */
export const pushSubscribeBodySchema = z.object({
  endpoint: pushEndpointSchema,
  keys: z.object({ p256dh: base64urlOf(65), auth: base64urlOf(16) }),
});
export type PushSubscribeBody = z.input<typeof pushSubscribeBodySchema>;

/** `POST /api/push/unsubscribe` and `POST /api/push/test`: which of the caller's devices. */
export const pushEndpointBodySchema = z.object({ endpoint: pushEndpointSchema });
export type PushEndpointBody = z.infer<typeof pushEndpointBodySchema>;

/** Devices one person may have notifications on; a new one beyond this replaces the least recently used. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;
/** Test notifications one person may send themselves per hour. */
export const PUSH_TESTS_PER_HOUR = 10;

export const PUSH_SUBSCRIBED_MESSAGE = 'Notifications are on for this device';
export const PUSH_UNSUBSCRIBED_MESSAGE = 'Notifications are off for this device';
export const PUSH_TEST_SENT_MESSAGE = 'Test notification sent';
export const PUSH_NOT_SUBSCRIBED_MESSAGE = 'Notifications are not on for this device';

/** What kind of event a push tells of; the service worker routes a tap by it. */
export const PUSH_KINDS = ['test', 'call', 'missed-call', 'poke', 'transmission', 'channel-add', 'sos'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/**
 * What a push carries, encrypted to the device: only what the notification shows and where a tap
 * leads (the service worker reads it). `tag` collapses notifications of one thing into one (one per
 * call, one per conversation's transmissions: the server writes "3 new from Family" itself).
 */
export const pushPayloadSchema = z.object({
  kind: z.enum(PUSH_KINDS),
  title: z.string().max(200),
  body: z.string().max(500),
  tag: z.string().max(64),
  /** A path of the app to open on tap (see `pushTapUrl`). */
  url: z.string().max(500).regex(/^\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/?#]*$/),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/**
 * Where a notification's tap leads: the main screen with what to open. The client reads these
 * query parameters on `/` (and removes them once acted on).
 * - `call`: the ringing call (Accept/Decline) while it still rings, else "Missed call from <name>";
 * - `channel` (+ `play`): that channel or direct conversation, playing that transmission.
 */
export const pushTapUrl = {
  call: (callId: string) => `/?call=${encodeURIComponent(callId)}`,
  channel: (channelId: number) => `/?channel=${channelId}`,
  transmission: (channelId: number, transmissionId: string) =>
    `/?channel=${channelId}&play=${encodeURIComponent(transmissionId)}`,
  /** An SOS alert: the full-screen alert, whatever screen the app would open on. */
  sos: (alertId: string) => `/?sos=${encodeURIComponent(alertId)}`,
} as const;

/**
 * `GET`/`PUT /api/push/preferences`: which kinds of event notify this person (on all their devices).
 * A test notification always goes.
 */
export const pushPreferencesSchema = z.object({
  calls: z.boolean(),
  pokes: z.boolean(),
  transmissions: z.boolean(),
  channelAdds: z.boolean(),
});
export type PushPreferences = z.infer<typeof pushPreferencesSchema>;

/** `GET`/`PUT /api/channels/:id/notify`: the member's "Notify me" for one channel or conversation. */
export const channelNotifySchema = z.object({ notify: z.boolean() });
export type ChannelNotify = z.infer<typeof channelNotifySchema>;
