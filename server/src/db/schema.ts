import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { TALK_MODES } from '../../../protocol/floor.js';
import { MAX_TRANSMISSION_SECONDS } from '../../../protocol/talk-mode.js';
import { SUBSCRIPTION_TIERS } from '../../../protocol/user.js';
import { SOS_SECONDS } from '../../../protocol/sos.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A person, keyed by the (issuer, subject) of their ID token. */
export const users = pgTable(
  'users',
  {
    id: text('id')
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    subscriptionTier: text('subscription_tier', { enum: SUBSCRIPTION_TIERS })
      .notNull()
      .default('free'),
    payAsYouGoEnabled: boolean('pay_as_you_go_enabled').notNull().default(false),
    /** Pay-as-you-go is switched on automatically once per user (spec §4 "Other"). */
    payAsYouGoAutoEnabledAt: timestamp('pay_as_you_go_auto_enabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_issuer_subject').on(t.issuer, t.subject),
    index('users_email').on(t.email),
  ],
);

/** Server-side sessions; the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ID token kept for the provider's end-session endpoint (id_token_hint). */
    idToken: text('id_token'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** Accounts of the built-in OpenID provider (name, e-mail, password). */
export const localAccounts = pgTable('local_accounts', {
  id: text('id')
    .primaryKey()
    .default(sql`gen_random_uuid()::text`),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
});

/** Storage of the built-in OpenID provider (codes, sessions, grants, interactions), shared by instances. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('oidc_payloads_grant').on(t.grantId),
    index('oidc_payloads_uid').on(t.uid),
  ],
);

export const CHANNEL_KINDS = ['group', 'direct'] as const;

export const channels = pgTable(
  'channels',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** 'open' (everyone at once) or 'walkie' (the server grants the floor to one). */
    talkMode: text('talk_mode', { enum: TALK_MODES }).notNull().default('open'),
    /** Walkie-talkie: the floor is taken back after this many seconds of one transmission. */
    maxTransmissionSeconds: integer('max_transmission_seconds')
      .notNull()
      .default(MAX_TRANSMISSION_SECONDS.default),
    /** Walkie-talkie: keep each transmission for replay during the retention window (item 2). */
    keepTransmissions: boolean('keep_transmissions').notNull().default(true),
    /**
     * 'group' (a channel people see in their lists) or 'direct' (a one-to-one walkie-talkie
     * conversation between two contacts: never listed, no admins, no invites).
     */
    kind: text('kind', { enum: CHANNEL_KINDS }).notNull().default('group'),
    /** Direct conversations only: the two user ids, sorted and joined by a space; one conversation per pair. */
    directKey: text('direct_key').unique(),
    /** An SOS channel: a member can raise an SOS here and every member is alerted (decision 050). */
    sos: boolean('sos').notNull().default(false),
    /** How long an SOS holds the floor here, in seconds. */
    sosSeconds: integer('sos_seconds').notNull().default(SOS_SECONDS.default),
  },
  (t) => [
    check('channels_talk_mode', sql`${t.talkMode} in ('open', 'walkie')`),
    check('channels_kind', sql`${t.kind} in ('group', 'direct')`),
    check('channels_direct_key', sql`(${t.kind} = 'direct') = (${t.directKey} is not null)`),
    check(
      'channels_max_transmission_range',
      sql`${t.maxTransmissionSeconds} between ${sql.raw(String(MAX_TRANSMISSION_SECONDS.min))} and ${sql.raw(String(MAX_TRANSMISSION_SECONDS.max))}`,
    ),
    check(
      'channels_sos_seconds_range',
      sql`${t.sosSeconds} between ${sql.raw(String(SOS_SECONDS.min))} and ${sql.raw(String(SOS_SECONDS.max))}`,
    ),
  ],
);

export const CHANNEL_ROLES = ['admin', 'member'] as const;

export const channelMembers = pgTable(
  'channel_members',
  {
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: CHANNEL_ROLES }).notNull().default('member'),
    /** Admin mute: the member may not publish audio in this channel. */
    isMuted: boolean('is_muted').notNull().default(false),
    joinedAt: createdAt(),
    /** Transmissions up to this time count as seen ("N missed" counts later ones). */
    transmissionsSeenAt: timestamp('transmissions_seen_at', { withTimezone: true }),
    /** The member's "Notify me" for this channel: push notifications of its transmissions. */
    notify: boolean('notify').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.userId] }),
    index('channel_members_user').on(t.userId),
  ],
);

export const contacts = pgTable(
  'contacts',
  {
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactId: text('contact_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.contactId] })],
);

export const blocks = pgTable(
  'blocks',
  {
    blockerId: text('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: text('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('blocks_blocked').on(t.blockedId),
  ],
);

/**
 * A listener's own voice switches. One row per user once they change something; no row
 * means the defaults (roger beep off).
 */
export const voicePreferences = pgTable('voice_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  rogerBeep: boolean('roger_beep').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * How loud `memberId` plays for `listenerId`, in whole percent (0-200). Only volumes away from the
 * default 100 % are stored; either user going deletes the row.
 */
export const memberVolumes = pgTable(
  'member_volumes',
  {
    listenerId: text('listener_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    volume: integer('volume').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.listenerId, t.memberId] }),
    index('member_volumes_member').on(t.memberId),
    check('member_volumes_volume_range', sql`${t.volume} between 0 and 200`),
  ],
);

/**
 * One voice connection's metered time; minutes are fixed when it ends (rounded up). The voice server
 * (built-in SFU join/leave, LiveKit's webhooks) opens and closes the row; a row the client opened
 * with `POST /api/usage/session/start` bills nothing until a connection claims it (decision 016).
 */
export const usageSessions = pgTable(
  'usage_sessions',
  {
    id: text('id')
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').references(() => channels.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    participantMinutes: integer('participant_minutes'),
    endReason: text('end_reason'),
    /** The voice token identity (`<userId>-<ms>-<random>`) of the connection metered here. */
    voiceIdentity: text('voice_identity'),
    /** The voice server's id of that connection (LiveKit's participant sid): one row per connection. */
    voiceConnection: text('voice_connection'),
    /**
     * The last time the voice server was seen carrying the connection (the built-in SFU holds it;
     * LiveKit lists it). After a crash the row ends here, so downtime is never billed.
     */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [
    index('usage_sessions_user_started').on(t.userId, t.startedAt),
    uniqueIndex('usage_sessions_voice_connection').on(t.voiceConnection),
  ],
);

/**
 * Chirp server processes that use this database, each refreshing `seenAt`; how an instance learns
 * that others share its database (the built-in SFU cannot span instances, see voice/instance-guard.ts).
 */
export const serverInstances = pgTable('server_instances', {
  id: text('id').primaryKey(),
  voiceProvider: text('voice_provider').notNull(),
  /** VOICE_PINNED: the operator routes all built-in SFU traffic to one instance. */
  voicePinned: boolean('voice_pinned').notNull().default(false),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

export const CALL_STATUSES = ['ringing', 'active', 'ended', 'declined', 'missed'] as const;

export const calls = pgTable(
  'calls',
  {
    id: text('id').primaryKey(),
    roomName: text('room_name').notNull().unique(),
    callerId: text('caller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    receiverId: text('receiver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CALL_STATUSES }).notNull().default('ringing'),
    createdAt: createdAt(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
  },
  (t) => [index('calls_caller').on(t.callerId), index('calls_receiver').on(t.receiverId)],
);

/** Invite links: the token is random and only its SHA-256 is stored. */
export const invites = pgTable(
  'invites',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('invites_channel_creator').on(t.channelId, t.createdBy)],
);

/**
 * Who was removed from which channel, and when: an invite minted before the removal cannot bring
 * that person back (DESIGN §3 "Invites"). Leaving by oneself is not recorded.
 */
export const channelRemovals = pgTable(
  'channel_removals',
  {
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] })],
);

/**
 * One-time owner setup codes (SHA-256 only), minted at start while the server has no superadmin, so
 * any instance accepts a code another printed. All are deleted once the server has an owner.
 */
export const ownerSetupCodes = pgTable('owner_setup_codes', {
  codeHash: text('code_hash').primaryKey(),
  createdAt: createdAt(),
});

/**
 * Counters of rate-limiter-flexible's Drizzle store (its column names), used when Redis is not
 * configured: sign-in slow-down, route limits, invite minting, setup-code attempts.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});

/**
 * A kept walkie-talkie transmission. Its Ogg Opus audio is in `transmission_audio` (written in the
 * row's transaction, gone with it) or, with TRANSMISSIONS_STORE=s3, an object in the bucket (see
 * decision 037); the row and its audio come and go together.
 */
export const transmissions = pgTable(
  'transmissions',
  {
    id: text('id').primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    speakerId: text('speaker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    bytes: integer('bytes').notNull(),
    /** Who was in the channel's voice and heard it live: for them it is not missed. */
    heardBy: text('heard_by').array().notNull().default(sql`'{}'::text[]`),
    /** Said in this SOS (decision 050): kept whatever the channel keeps, until the alert is resolved. */
    sosAlertId: text('sos_alert_id').references(() => sosAlerts.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('transmissions_sos_alert').on(t.sosAlertId),
    index('transmissions_channel_started').on(t.channelId, t.startedAt),
    index('transmissions_speaker').on(t.speakerId),
    index('transmissions_started').on(t.startedAt),
  ],
);

/**
 * Family SOS alerts (decision 050): one per raise (a second raise within the extend window moves
 * `talkUntil` instead). They go with their channel and their sender.
 */
export const sosAlerts = pgTable(
  'sos_alerts',
  {
    id: text('id')
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    senderId: text('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    /** The sender holds the SOS floor until then (an extension moves it). */
    talkUntil: timestamp('talk_until', { withTimezone: true }).notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    accuracy: doublePrecision('accuracy'),
    locatedAt: timestamp('located_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('sos_alerts_channel_raised').on(t.channelId, t.raisedAt),
    index('sos_alerts_sender').on(t.senderId),
  ],
);

/** Who answered "I'm on it" to an alert, once each. */
export const sosAcks = pgTable(
  'sos_acks',
  {
    alertId: text('alert_id')
      .notNull()
      .references(() => sosAlerts.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.userId] }), index('sos_acks_user').on(t.userId)],
);

/**
 * Each LiveKit identity the token endpoint minted, and whose it is: LiveKit's join webhook finds
 * here the sign-in session a participant belongs to (LiveKit shows token attributes to everyone in
 * the room, so the session is not in the token). A row goes with its session, user or channel.
 */
export const livekitIdentities = pgTable(
  'livekit_identities',
  {
    identity: text('identity').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.idHash, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('livekit_identities_session').on(t.sessionId)],
);

/**
 * The server's VAPID key pair, when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are not set: made once by
 * whichever instance starts first (insert-if-absent on the one row), so every instance signs pushes
 * with the same keys and browsers' subscriptions stay valid.
 */
export const vapidKeys = pgTable(
  'vapid_keys',
  {
    id: integer('id').primaryKey().default(1),
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('vapid_keys_single_row', sql`${t.id} = 1`)],
);

/**
 * A device's Web Push subscription. It belongs to the user and to the sign-in session it was made in:
 * logging out of that session, or deleting the account, removes it (ON DELETE CASCADE).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.idHash, { onDelete: 'cascade' }),
    /** The push service's URL for this device: a capability, never logged. */
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_subscriptions_user').on(t.userId), index('push_subscriptions_session').on(t.sessionId)],
);

/** Raw bytes (PostgreSQL `bytea`), read and written as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A kept transmission's Ogg Opus audio when transmissions are stored in the database (the default):
 * apart from the row so listing transmissions never reads audio; it goes with its transmission.
 */
export const transmissionAudio = pgTable('transmission_audio', {
  transmissionId: text('transmission_id')
    .primaryKey()
    .references(() => transmissions.id, { onDelete: 'cascade' }),
  data: bytea('data').notNull(),
});

/** Which kinds of push notification a person wants (a missing row means all of them). */
export const pushPreferences = pgTable('push_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  calls: boolean('calls').notNull().default(true),
  pokes: boolean('pokes').notNull().default(true),
  transmissions: boolean('transmissions').notNull().default(true),
  channelAdds: boolean('channel_adds').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per event and device a push went to: every instance that sees an event inserts here
 * first (insert-if-absent), and only the one whose insert lands sends, so a device gets one push
 * per event however many instances saw it. Old rows are swept.
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    eventKey: text('event_key').notNull(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventKey, t.subscriptionId] }), index('push_deliveries_sent').on(t.sentAt)],
);
