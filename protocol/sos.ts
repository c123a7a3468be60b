import { z } from 'zod';
import { channelIdSchema } from './channels.js';

/**
 * Family SOS (decision 050): a member of an SOS channel holds SOS, a countdown runs, and then their
 * voice cuts in on the channel for the channel's SOS seconds, their location (when they allow it) is
 * attached and refreshed, every member is alerted (socket, high-urgency push, or the alert on their
 * next open), members answer "I'm on it", and the sender or a channel admin marks it resolved.
 */

/** How long an SOS opens the sender's microphone, in seconds (a channel admin sets it). */
export const SOS_SECONDS = { min: 5, max: 30, default: 10 } as const;
/** Holding SOS this long starts the countdown. */
export const SOS_HOLD_MS = 2_000;
/** The countdown after the hold, with Cancel, before anything is sent. */
export const SOS_COUNTDOWN_MS = 5_000;
/** A second SOS by the same person within this window extends the first instead of raising a new one. */
export const SOS_EXTEND_WINDOW_MS = 2 * 60_000;
/** The sender's location is refreshed this often, for this long after the SOS was raised. */
export const SOS_LOCATION_INTERVAL_MS = 15_000;
export const SOS_LOCATION_WINDOW_MS = 5 * 60_000;

export const sosIdSchema = z.string().uuid();
export const sosParamsSchema = z.object({ id: sosIdSchema });

export const sosSecondsSchema = z
  .number()
  .int('SOS talk time must be a whole number of seconds')
  .min(SOS_SECONDS.min, `SOS talk time must be at least ${SOS_SECONDS.min} seconds`)
  .max(SOS_SECONDS.max, `SOS talk time must be at most ${SOS_SECONDS.max} seconds`);

/** `PUT /api/channels/{id}/sos` (channel admins of a group channel): mark it an SOS channel. */
export const channelSosBodySchema = z
  .object({ sos: z.boolean(), sosSeconds: sosSecondsSchema.optional() })
  .strict();
export type ChannelSosBody = z.infer<typeof channelSosBodySchema>;
export const channelSosSchema = z.object({ sos: z.boolean(), sosSeconds: z.number().int() });
export type ChannelSosSettings = z.infer<typeof channelSosSchema>;

/** `POST /api/sos`: raise an SOS on one of my SOS channels. */
export const raiseSosBodySchema = z.object({ channelId: channelIdSchema }).strict();
export type RaiseSosBody = z.infer<typeof raiseSosBodySchema>;

/**
 * `POST /api/sos/arm` during the countdown (decision 054): the voice server lets the sender publish a
 * muted microphone until the countdown ends, so the SOS is an unmute rather than a new publication.
 * `armed` is false where nothing needs arming (the built-in SFU, or not in the room yet).
 * `POST /api/sos/disarm` (Cancel) takes it back at once.
 */
export const sosArmBodySchema = raiseSosBodySchema;
export const sosArmResponseSchema = z.object({ armed: z.boolean() });
export type SosArmResponse = z.infer<typeof sosArmResponseSchema>;
/** An arm lasts the countdown and a little more, then lapses unless an SOS followed. */
export const SOS_ARM_MS = SOS_COUNTDOWN_MS + 2_000;

/** Geolocation as the browser measured it (WGS 84 degrees, accuracy radius in metres). */
export const sosLocationBodySchema = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    accuracy: z.number().nonnegative().max(1_000_000),
  })
  .strict();
export type SosLocationBody = z.infer<typeof sosLocationBodySchema>;

const person = z.object({ id: z.string(), name: z.string() });

export const sosAlertSchema = z.object({
  id: sosIdSchema,
  channelId: z.number().int(),
  channelName: z.string(),
  sender: person,
  /** ISO 8601. */
  raisedAt: z.string(),
  /** Epoch milliseconds: the sender's voice cuts in until then (an extension moves it). */
  talkUntil: z.number(),
  /** The latest location, when the sender allowed it. */
  location: sosLocationBodySchema.extend({ at: z.string() }).nullable(),
  /** Who answered "I'm on it", first first. */
  acks: z.array(z.object({ user: person, at: z.string() })),
  resolvedAt: z.string().nullable(),
  resolvedBy: person.nullable(),
  /** The SOS audio kept so far (play it with the channel's transmission audio path). */
  transmissions: z.array(z.object({ id: z.string(), durationMs: z.number().int().nonnegative() })),
});
export type SosAlert = z.infer<typeof sosAlertSchema>;

/** `GET /api/sos`: the unresolved alerts of my channels, newest first. */
export const sosAlertsResponseSchema = z.array(sosAlertSchema);

/**
 * Server → every device of every member of the channel (the sender's too), on each change: raised,
 * extended, located, acknowledged, audio kept, resolved. It carries the whole alert; the client
 * keeps the latest by id.
 */
export const sosAlertMessageSchema = z.object({
  type: z.literal('sos_alert'),
  alert: sosAlertSchema,
});
export type SosAlertMessage = z.infer<typeof sosAlertMessageSchema>;

/** Refusals the user sees. */
export const SOS_NOT_SOS_CHANNEL = 'This channel is not an SOS channel';
export const SOS_NOT_MEMBER = 'Only members of this channel can raise an SOS';
export const SOS_ALERT_NOT_FOUND = 'Alert not found';
export const SOS_ONLY_SENDER_LOCATES = 'Only the sender can share a location for this alert';
export const SOS_LOCATION_CLOSED = 'This alert no longer takes location updates';
export const SOS_ONLY_SENDER_OR_ADMIN_RESOLVES = 'Only the sender or a channel admin can resolve this alert';
export const SOS_ALREADY_RESOLVED = 'This alert is already resolved';

/** Texts of the interface (client), kept here so tests and the push use the same words. */
export const sosTitle = (senderName: string) => `SOS from ${senderName}`;
/** The SOS push notification's body. */
export const sosPushBody = (channelName: string) => `${channelName} · tap to see where and listen`;
export const sosOnItText = (name: string) => `${name} is on it`;
export const SOS_ACK_LABEL = "I'm on it";
export const SOS_RESOLVE_LABEL = 'Mark resolved';
