import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../../protocol/channels.js';
import { CONTACT_ADD_MESSAGE } from '../../../protocol/contacts.js';
import { REMOVED_BY_ADMIN_MESSAGE } from '../../../protocol/invites.js';
import { callClientMessageSchema, signalClientMessageSchema } from '../../../protocol/calls.js';
import type { User } from '../../../protocol/user.js';
import {
  clientVoiceMessageSchema,
  VOICE_SIGNALLING_VERSION,
} from '../../../protocol/voice-signalling.js';
import { wsClientMessageSchema } from '../../../protocol/sockets.js';
import {
  blocks,
  calls,
  channelMembers,
  channelRemovals,
  channels,
  contacts,
  invites,
  memberVolumes,
  sosAcks,
  sosAlerts,
  usageSessions,
  users,
  voicePreferences,
} from '../db/schema.js';
import { hashInviteToken, newInviteToken } from '../invites/invite-token.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { body, setTier, signIn, signInOwner, type Person } from '../testing/people.js';
import {
  SOS_ALERT_NOT_FOUND,
  SOS_NOT_MEMBER,
  SOS_ONLY_SENDER_LOCATES,
  SOS_ONLY_SENDER_OR_ADMIN_RESOLVES,
  type SosAlert,
} from '../../../protocol/sos.js';

/**
 * Who may do what: every REST route the server registers and every message a client may send on its
 * sockets, as every kind of caller, from ONE table. A route or a message type without a row fails.
 *
 * The channel under test is made fresh for each case by `channelAdmin`; `memberTier`, `channelMember`,
 * `blocked` and `target` are in it; `target` (and `outsider`) have blocked `blocked`; `outsider` is
 * in nothing and is each caller's contact; `removed` (member tier) was removed from it an hour ago.
 *
 * "Who may be a member" has a row per door — admin add, self-join, invite redemption, contact
 * import (an address from the picker) — and each door again with a removed person going through it
 * (`removeSelf`: the caller was removed an hour ago, unless they are the channel's creator).
 */
const ACTORS = [
  'guest', // signed out
  'free', // free tier, in no channel
  'memberTier', // member tier, in the channel
  'channelMember', // free tier, in the channel
  'nonMember', // member tier, not in the channel
  'channelAdmin', // admin tier, the channel's creator
  'adminTierNonMember', // admin tier, not in the channel
  'superadmin', // the owner, not in the channel
  'blocked', // free tier, in the channel, blocked by target and outsider
] as const;
type Actor = (typeof ACTORS)[number];
type Outcomes<T> = readonly [T, T, T, T, T, T, T, T, T];

interface Fixture {
  channelId: number;
  self: string;
  selfEmail: string;
  targetId: string;
  targetEmail: string;
  outsiderId: string;
  outsiderEmail: string;
  /** Has blocked `blocked`, and is in no call: the one to ring. */
  receiverId: string;
  memberId: string;
  inviteToken: string;
  inviteId: number;
  /** An invite minted two hours ago, before any removal of the fixture. */
  staleInviteToken: string;
  removedId: string;
  removedEmail: string;
  ownSessionId: string;
  targetSessionId: string;
  ringingCallId: string;
  activeRoom: string;
  /** An unresolved SOS of `target`'s in the channel under test (an SOS channel). */
  sosAlertId: string;
}

interface RestRow {
  kind: 'rest';
  /** The registered route this row covers, as `METHOD /pattern`. */
  route: string;
  path: (f: Fixture) => string;
  json?: (f: Fixture) => unknown;
  /** Expected status per actor, in ACTORS order; 'same' = one status for all, below 500. */
  statuses: Outcomes<number> | 'same';
  /** GETs that legitimately write (an invite link is stored). */
  writes?: boolean;
  /** The request ends the caller's session (logout): sign them in again afterwards. */
  endsSession?: boolean;
  /** Headers as a browser would send them (an empty `origin` stands for none). */
  headers?: Record<string, string>;
  /** The caller was removed from the channel an hour ago (not the creator, who cannot be). */
  removeSelf?: boolean;
  check?: (f: Fixture, actor: Actor, response: unknown, db: Db) => void | Promise<void>;
  /** The message a refusal carries for this actor, when the row pins it. */
  refusal?: (actor: Actor) => string | undefined;
}

/** What the socket layer did with a message: its effect happened, or it was ignored/refused. */
type SocketOutcome = 'effect' | 'ignored' | 'no-socket';
interface SocketRow {
  kind: 'socket';
  socket: 'ws' | 'ws/webrtc' | 'rtc';
  /** The client message type this row covers (from the protocol union of that socket). */
  message: string;
  outcomes: Outcomes<SocketOutcome>;
  run: (ctx: SocketCase) => Promise<Exclude<SocketOutcome, 'no-socket'>>;
}

type Row = RestRow | SocketRow;
type Db = TestServer['database']['db'];

/** Decision 013: whether `userId`'s removal from the channel under test still stands. */
async function expectRemovalStands(db: Db, f: Fixture, userId: string, stands: boolean): Promise<void> {
  const rows = await db
    .select()
    .from(channelRemovals)
    .where(and(eq(channelRemovals.channelId, f.channelId), eq(channelRemovals.userId, userId)));
  expect(rows.length > 0).toBe(stands);
}

const MISSING = 999_999;
const everyone = (status: number): Outcomes<number> => [
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
];
const signedIn = (status: number): Outcomes<number> => [
  401,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
];
/** Members of the channel: memberTier, channelMember, channelAdmin, blocked. */
const members = (yes: number, no: number): Outcomes<number> => [
  401,
  no,
  yes,
  yes,
  no,
  yes,
  no,
  no,
  yes,
];
/** May see inside the channel: its members and any superadmin. */
const readers = (yes: number, no: number): Outcomes<number> => [
  401,
  no,
  yes,
  yes,
  no,
  yes,
  no,
  yes,
  yes,
];
/** May manage the channel: its admin and any superadmin. */
const managers = (yes: number, no: number): Outcomes<number> => [
  401,
  no,
  no,
  no,
  no,
  yes,
  no,
  yes,
  no,
];
const E = 'effect' as const;
const I = 'ignored' as const;
const N = 'no-socket' as const;
const memberEffect: Outcomes<SocketOutcome> = [N, I, E, E, I, E, I, I, E];
const nobody: Outcomes<SocketOutcome> = [N, I, I, I, I, I, I, I, I];
/** Every signed-in actor, for what is about their own session only. */
const ownEffect: Outcomes<SocketOutcome> = [N, E, E, E, E, E, E, E, E];
/** The SFU admits by voice token alone: anyone may open /rtc, only a member's token joins. */
const rtcRefused: Outcomes<SocketOutcome> = [I, I, I, I, I, I, I, I, I];

const ROWS: Record<string, Row> = {
  // --- probes, sign-in and the built-in provider (no app session involved) ---
  'GET /healthz': {
    kind: 'rest',
    route: 'GET /healthz',
    path: () => '/healthz',
    statuses: everyone(200),
  },
  'GET /readyz': {
    kind: 'rest',
    route: 'GET /readyz',
    path: () => '/readyz',
    statuses: everyone(200),
  },
  'GET /api/login': {
    kind: 'rest',
    route: 'GET /api/login',
    path: () => '/api/login',
    statuses: 'same',
  },
  'GET /api/callback (no login under way)': {
    kind: 'rest',
    route: 'GET /api/callback',
    path: () => '/api/callback?code=x&state=y',
    statuses: 'same',
  },
  'GET /api/logout': {
    kind: 'rest',
    route: 'GET /api/logout',
    path: () => '/api/logout',
    statuses: 'same',
    endsSession: true,
    writes: true,
  },
  'GET /api/auth/user': {
    kind: 'rest',
    route: 'GET /api/auth/user',
    path: () => '/api/auth/user',
    statuses: signedIn(200),
  },
  'GET /api/config': {
    kind: 'rest',
    route: 'GET /api/config',
    path: () => '/api/config',
    statuses: everyone(200),
  },
  // The landing's terms notice links them: readable before anyone signs in.
  'GET /legal/terms': {
    kind: 'rest',
    route: 'GET /legal/terms',
    path: () => '/legal/terms',
    statuses: everyone(200),
  },
  'GET /legal/privacy': {
    kind: 'rest',
    route: 'GET /legal/privacy',
    path: () => '/legal/privacy',
    statuses: everyone(200),
  },
  // Without METRICS_TOKEN only this machine reads them; the matrix's clients come through a proxy
  // from addresses of their own, so nobody does (a signed-in session is no key to them).
  'GET /metrics': {
    kind: 'rest',
    route: 'GET /metrics',
    path: () => '/metrics',
    statuses: everyone(403),
  },
  // --- the signed-in user's own account (Settings) ---
  'GET /api/account': {
    kind: 'rest',
    route: 'GET /api/account',
    path: () => '/api/account',
    statuses: signedIn(200),
  },
  'POST /api/account/password (wrong current password)': {
    kind: 'rest',
    route: 'POST /api/account/password',
    path: () => '/api/account/password',
    json: () => ({ currentPassword: 'not-the-password', newPassword: 'a-new-password-123' }),
    statuses: signedIn(403),
  },
  // Only one's own name, and only a valid one (an empty one here, so the matrix's names stay).
  'PUT /api/account/name (empty name)': {
    kind: 'rest',
    route: 'PUT /api/account/name',
    path: () => '/api/account/name',
    json: () => ({ firstName: ' ', lastName: '' }),
    statuses: signedIn(400),
  },
  'DELETE /api/account (wrong password)': {
    kind: 'rest',
    route: 'DELETE /api/account',
    path: () => '/api/account',
    json: () => ({ password: 'not-the-password' }),
    statuses: signedIn(403),
  },
  'GET /oidc (discovery)': {
    kind: 'rest',
    route: 'GET /oidc/*',
    path: () => '/oidc/.well-known/openid-configuration',
    statuses: 'same',
  },
  'POST /oidc/token (no client credentials)': {
    kind: 'rest',
    route: 'POST /oidc/*',
    path: () => '/oidc/token',
    json: () => ({}),
    statuses: 'same',
  },
  'OPTIONS /oidc/token': {
    kind: 'rest',
    route: 'OPTIONS /oidc/*',
    path: () => '/oidc/token',
    statuses: 'same',
  },
  'GET /oidc': { kind: 'rest', route: 'GET /oidc', path: () => '/oidc', statuses: 'same' },
  'POST /oidc': {
    kind: 'rest',
    route: 'POST /oidc',
    path: () => '/oidc',
    json: () => ({}),
    statuses: 'same',
  },
  'OPTIONS /oidc': { kind: 'rest', route: 'OPTIONS /oidc', path: () => '/oidc', statuses: 'same' },
  'GET /oidc/auth (invalid request)': {
    kind: 'rest',
    route: 'GET /oidc/auth',
    path: () => '/oidc/auth',
    statuses: 'same',
  },
  'POST /oidc/auth (invalid request)': {
    kind: 'rest',
    route: 'POST /oidc/auth',
    path: () => '/oidc/auth',
    json: () => ({}),
    statuses: 'same',
  },
  'OPTIONS /oidc/auth': {
    kind: 'rest',
    route: 'OPTIONS /oidc/auth',
    path: () => '/oidc/auth',
    statuses: 'same',
  },
  'GET /oidc/auth/{unknown}': {
    kind: 'rest',
    route: 'GET /oidc/auth/*',
    path: () => '/oidc/auth/unknown-uid',
    statuses: 'same',
  },
  'POST /oidc/auth/{unknown}': {
    kind: 'rest',
    route: 'POST /oidc/auth/*',
    path: () => '/oidc/auth/unknown-uid',
    json: () => ({}),
    statuses: 'same',
  },
  'OPTIONS /oidc/auth/{unknown}': {
    kind: 'rest',
    route: 'OPTIONS /oidc/auth/*',
    path: () => '/oidc/auth/unknown-uid',
    statuses: 'same',
  },
  'GET /oidc/interaction/{unknown}': {
    kind: 'rest',
    route: 'GET /oidc/interaction/:uid',
    path: () => '/oidc/interaction/unknown',
    statuses: 'same',
  },
  'POST /oidc/interaction/{unknown}': {
    kind: 'rest',
    route: 'POST /oidc/interaction/:uid',
    path: () => '/oidc/interaction/unknown',
    json: () => ({}),
    statuses: 'same',
  },

  // --- users and tiers ---
  'GET /api/users': {
    kind: 'rest',
    route: 'GET /api/users',
    path: () => '/api/users',
    statuses: signedIn(200),
    check: (f, actor, response) => {
      const seen = new Map((response as User[]).map((u) => [u.id, u.email]));
      // Names for everyone; e-mails of strangers only for the superadmin (decision record 014).
      expect(seen.get(f.self)).toBe(f.selfEmail);
      expect(seen.get(f.outsiderId) !== null).toBe(true); // a contact of every caller
      const stranger = seen.get(ids.adminTierNonMember);
      if (actor === 'superadmin' || actor === 'adminTierNonMember') expect(stranger).not.toBeNull();
      else expect(stranger).toBeNull();
    },
  },
  'GET /api/users/{member}/channels': {
    kind: 'rest',
    route: 'GET /api/users/:userId/channels',
    path: (f) => `/api/users/${f.memberId}/channels`,
    statuses: [401, 403, 403, 200, 403, 403, 403, 200, 403],
  },
  'POST /api/users/{outsider}/subscription': {
    kind: 'rest',
    route: 'POST /api/users/:id/subscription',
    path: (f) => `/api/users/${f.outsiderId}/subscription`,
    json: () => ({ subscriptionTier: 'member' }),
    statuses: [401, 403, 403, 403, 403, 403, 403, 200, 403],
  },

  // --- channels and members ---
  'GET /api/channels': {
    kind: 'rest',
    route: 'GET /api/channels',
    path: () => '/api/channels',
    statuses: signedIn(200),
    check: (f, actor, response) => {
      const sees = (response as Channel[]).some((c) => c.id === f.channelId);
      // Free users see only their own channels; member tier and above see every channel.
      expect(sees).toBe(actor !== 'free');
    },
  },
  'POST /api/channels': {
    kind: 'rest',
    route: 'POST /api/channels',
    path: () => '/api/channels',
    json: () => ({ name: 'New' }),
    statuses: [401, 403, 403, 403, 403, 201, 201, 201, 403],
  },
  'DELETE /api/channels/{id}': {
    kind: 'rest',
    route: 'DELETE /api/channels/:id',
    path: (f) => `/api/channels/${f.channelId}`,
    statuses: managers(200, 403),
  },
  'PUT /api/channels/{id}/talk-mode': {
    kind: 'rest',
    route: 'PUT /api/channels/:id/talk-mode',
    path: (f) => `/api/channels/${f.channelId}/talk-mode`,
    json: () => ({ talkMode: 'walkie', maxTransmissionSeconds: 30 }),
    statuses: managers(200, 403),
  },
  'PUT /api/channels/{missing}/talk-mode': {
    kind: 'rest',
    route: 'PUT /api/channels/:id/talk-mode',
    path: () => `/api/channels/${MISSING}/talk-mode`,
    json: () => ({ talkMode: 'walkie' }),
    statuses: signedIn(404),
  },
  // Kept transmissions are for the channel's current members only.
  'GET /api/channels/{id}/transmissions': {
    kind: 'rest',
    route: 'GET /api/channels/:id/transmissions',
    path: (f) => `/api/channels/${f.channelId}/transmissions`,
    statuses: members(200, 403),
  },
  'GET /api/channels/{id}/transmissions/{unknown}/audio': {
    kind: 'rest',
    route: 'GET /api/channels/:id/transmissions/:transmissionId/audio',
    path: (f) => `/api/channels/${f.channelId}/transmissions/${randomUUID()}/audio`,
    statuses: members(404, 403),
  },
  'POST /api/channels/{id}/transmissions/read': {
    kind: 'rest',
    route: 'POST /api/channels/:id/transmissions/read',
    path: (f) => `/api/channels/${f.channelId}/transmissions/read`,
    statuses: members(200, 403),
  },
  'DELETE /api/channels/{missing}': {
    kind: 'rest',
    route: 'DELETE /api/channels/:id',
    path: () => `/api/channels/${MISSING}`,
    statuses: signedIn(404),
  },
  'GET /api/channels/{id}/members': {
    kind: 'rest',
    route: 'GET /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    statuses: readers(200, 403),
  },
  'POST /api/channels/{id}/members {outsider}': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ userId: f.outsiderId }),
    statuses: managers(201, 403),
  },
  'POST /api/channels/{id}/members {self}': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ userId: f.self }),
    // Member tier and above join by themselves (409 when already in); free users need an invite.
    statuses: [401, 403, 409, 403, 201, 409, 201, 201, 403],
  },
  // --- Family SOS (decision 050): members raise and answer; another channel's alert does not exist ---
  'PUT /api/channels/{id}/sos': {
    kind: 'rest',
    route: 'PUT /api/channels/:id/sos',
    path: (f) => `/api/channels/${f.channelId}/sos`,
    json: () => ({ sos: true, sosSeconds: 15 }),
    statuses: managers(200, 403),
  },
  'PUT /api/channels/{missing}/sos': {
    kind: 'rest',
    route: 'PUT /api/channels/:id/sos',
    path: () => `/api/channels/${MISSING}/sos`,
    json: () => ({ sos: true }),
    statuses: signedIn(404),
  },
  'POST /api/sos': {
    kind: 'rest',
    route: 'POST /api/sos',
    path: () => '/api/sos',
    json: (f) => ({ channelId: f.channelId }),
    statuses: members(201, 403),
    refusal: (actor) => (actor === 'guest' ? undefined : SOS_NOT_MEMBER),
    check: (f, _actor, response) => {
      expect(response).toMatchObject({ channelId: f.channelId, sender: { id: f.self } });
    },
  },
  'POST /api/sos {missing channel}': {
    kind: 'rest',
    route: 'POST /api/sos',
    path: () => '/api/sos',
    json: () => ({ channelId: MISSING }),
    statuses: signedIn(403),
    refusal: (actor) => (actor === 'guest' ? undefined : SOS_NOT_MEMBER),
  },
  // The countdown's arm (decision 054): only what a raise allows, and it changes only the sender.
  'POST /api/sos/arm': {
    kind: 'rest',
    route: 'POST /api/sos/arm',
    path: () => '/api/sos/arm',
    json: (f) => ({ channelId: f.channelId }),
    statuses: members(200, 403),
    refusal: (actor) => (actor === 'guest' ? undefined : SOS_NOT_MEMBER),
  },
  'POST /api/sos/disarm': {
    kind: 'rest',
    route: 'POST /api/sos/disarm',
    path: () => '/api/sos/disarm',
    json: (f) => ({ channelId: f.channelId }),
    statuses: members(204, 403),
    refusal: (actor) => (actor === 'guest' ? undefined : SOS_NOT_MEMBER),
  },
  'GET /api/sos': {
    kind: 'rest',
    route: 'GET /api/sos',
    path: () => '/api/sos',
    statuses: signedIn(200),
    check: (f, actor, response) => {
      const sees = (response as SosAlert[]).some((alert) => alert.id === f.sosAlertId);
      expect(sees).toBe(['memberTier', 'channelMember', 'channelAdmin', 'blocked'].includes(actor));
    },
  },
  'PUT /api/sos/{id}/location': {
    kind: 'rest',
    route: 'PUT /api/sos/:id/location',
    path: (f) => `/api/sos/${f.sosAlertId}/location`,
    json: () => ({ latitude: 1, longitude: 2, accuracy: 3 }),
    // Only its sender (`target`, no actor here) locates; a non-member learns nothing of it.
    statuses: members(403, 404),
    refusal: (actor) =>
      actor === 'guest'
        ? undefined
        : ['memberTier', 'channelMember', 'channelAdmin', 'blocked'].includes(actor)
          ? SOS_ONLY_SENDER_LOCATES
          : SOS_ALERT_NOT_FOUND,
  },
  'POST /api/sos/{id}/ack': {
    kind: 'rest',
    route: 'POST /api/sos/:id/ack',
    path: (f) => `/api/sos/${f.sosAlertId}/ack`,
    statuses: members(200, 404),
    refusal: (actor) => (actor === 'guest' ? undefined : SOS_ALERT_NOT_FOUND),
    check: (f, _actor, response) => {
      expect((response as SosAlert).acks.map((a) => a.user.id)).toEqual([f.self]);
    },
  },
  'POST /api/sos/{unknown}/ack': {
    kind: 'rest',
    route: 'POST /api/sos/:id/ack',
    path: () => `/api/sos/${randomUUID()}/ack`,
    statuses: signedIn(404),
  },
  'POST /api/sos/{id}/resolve': {
    kind: 'rest',
    route: 'POST /api/sos/:id/resolve',
    path: (f) => `/api/sos/${f.sosAlertId}/resolve`,
    // The sender, the channel's admin or a superadmin; other members are refused; others see nothing.
    statuses: [401, 404, 403, 403, 404, 200, 404, 200, 403],
    refusal: (actor) =>
      actor === 'guest'
        ? undefined
        : ['memberTier', 'channelMember', 'blocked'].includes(actor)
          ? SOS_ONLY_SENDER_OR_ADMIN_RESOLVES
          : SOS_ALERT_NOT_FOUND,
    check: (f, _actor, response) => {
      expect(response).toMatchObject({ id: f.sosAlertId, resolvedBy: { id: f.self } });
    },
  },

  // --- who may be a member: each door, and each door for someone removed (decision 013) ---
  'POST /api/channels/{id}/members {removed} (admin add undoes a removal)': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ userId: f.removedId }),
    statuses: managers(201, 403),
    check: (f, _actor, _response, db) => expectRemovalStands(db, f, f.removedId, false),
  },
  'POST /api/channels/{id}/members {self} after being removed': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ userId: f.self }),
    removeSelf: true,
    // Joining by oneself never undoes a removal; a superadmin is the channel's admin and may.
    statuses: [401, 403, 403, 403, 403, 409, 403, 201, 403],
    refusal: (actor) => (['memberTier', 'nonMember', 'adminTierNonMember'].includes(actor) ? REMOVED_BY_ADMIN_MESSAGE : undefined),
  },
  'POST /api/channels/{id}/members {own e-mail} after being removed': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ email: f.selfEmail }),
    removeSelf: true,
    statuses: [401, 403, 403, 403, 403, 409, 403, 201, 403],
    refusal: (actor) => (['memberTier', 'nonMember', 'adminTierNonMember'].includes(actor) ? REMOVED_BY_ADMIN_MESSAGE : undefined),
  },
  'POST /api/channels/{id}/members {outsider e-mail} (contact import)': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ email: f.outsiderEmail.toUpperCase() }),
    statuses: managers(201, 403),
  },
  'POST /api/channels/{id}/members {removed e-mail} (contact import undoes a removal)': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: (f) => ({ email: f.removedEmail }),
    statuses: managers(201, 403),
    check: (f, _actor, _response, db) => expectRemovalStands(db, f, f.removedId, false),
  },
  'POST /api/channels/{id}/members {unknown e-mail} (contact import)': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members',
    path: (f) => `/api/channels/${f.channelId}/members`,
    json: () => ({ email: 'nobody-here@example.com' }),
    // Only who may add learns that an address has no account; others are refused before the lookup.
    statuses: managers(404, 403),
  },
  'POST /api/invite/accept {link older than the removal}': {
    kind: 'rest',
    route: 'POST /api/invite/accept',
    path: () => '/api/invite/accept',
    json: (f) => ({ token: f.staleInviteToken }),
    removeSelf: true,
    // Everyone removed is refused; the creator, never removed, is simply already in.
    statuses: [401, 403, 403, 403, 403, 200, 403, 403, 403],
    refusal: (actor) => (actor === 'guest' ? undefined : REMOVED_BY_ADMIN_MESSAGE),
  },
  'POST /api/invite/accept {link newer than the removal}': {
    kind: 'rest',
    route: 'POST /api/invite/accept',
    path: () => '/api/invite/accept',
    json: (f) => ({ token: f.inviteToken }),
    removeSelf: true,
    statuses: signedIn(200),
    check: (f, _actor, _response, db) => expectRemovalStands(db, f, f.self, false),
  },
  'DELETE /api/channels/{id}/members/{target}': {
    kind: 'rest',
    route: 'DELETE /api/channels/:id/members/:memberId',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}`,
    statuses: managers(200, 403),
  },
  'DELETE /api/channels/{id}/members/{self} (leave)': {
    kind: 'rest',
    route: 'DELETE /api/channels/:id/members/:memberId',
    path: (f) => `/api/channels/${f.channelId}/members/${f.self}`,
    // Any member leaves; the creator cannot (the channel keeps its admin); others are not in it.
    statuses: [401, 404, 200, 200, 404, 403, 404, 404, 200],
  },
  'POST /api/channels/{id}/members/{target}/mute': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members/:memberId/mute',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}/mute`,
    statuses: managers(200, 403),
  },
  'DELETE /api/channels/{id}/members/{target}/mute': {
    kind: 'rest',
    route: 'DELETE /api/channels/:id/members/:memberId/mute',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}/mute`,
    statuses: managers(200, 403),
  },
  'POST /api/channels/{id}/members/{target}/poke': {
    kind: 'rest',
    route: 'POST /api/channels/:id/members/:memberId/poke',
    path: (f) => `/api/channels/${f.channelId}/members/${f.targetId}/poke`,
    // Members poke members; the target has blocked `blocked`, which silences pokes too.
    statuses: [401, 403, 200, 200, 403, 200, 403, 403, 403],
  },
  'GET /api/muted-users/{id}': {
    kind: 'rest',
    route: 'GET /api/muted-users/:channelId',
    path: (f) => `/api/muted-users/${f.channelId}`,
    statuses: readers(200, 403),
  },

  // --- contacts and blocking ---
  'GET /api/contacts': {
    kind: 'rest',
    route: 'GET /api/contacts',
    path: () => '/api/contacts',
    statuses: signedIn(200),
  },
  'POST /api/contacts {target}': {
    kind: 'rest',
    route: 'POST /api/contacts',
    path: () => '/api/contacts',
    json: (f) => ({ email: f.targetEmail }),
    statuses: signedIn(200),
    check: (_f, _actor, response) => expect(response).toEqual({ message: CONTACT_ADD_MESSAGE }),
  },
  'POST /api/contacts {unknown address}': {
    kind: 'rest',
    route: 'POST /api/contacts',
    path: () => '/api/contacts',
    json: () => ({ email: 'nobody-here@example.com' }),
    // The same answer as for a registered address: no oracle.
    statuses: signedIn(200),
    check: (_f, _actor, response) => expect(response).toEqual({ message: CONTACT_ADD_MESSAGE }),
  },
  // Each caller's own channels only.
  'GET /api/channels/activity': {
    kind: 'rest',
    route: 'GET /api/channels/activity',
    path: () => '/api/channels/activity',
    statuses: signedIn(200),
  },
  'GET /api/conversations': {
    kind: 'rest',
    route: 'GET /api/conversations',
    path: () => '/api/conversations',
    statuses: signedIn(200),
  },
  // Anyone signed in may open one with anyone (the rule of one-to-one calls), but not across a block.
  'POST /api/conversations {outsider}': {
    kind: 'rest',
    route: 'POST /api/conversations',
    path: () => '/api/conversations',
    json: (f) => ({ userId: f.outsiderId }),
    statuses: [401, 200, 200, 200, 200, 200, 200, 200, 403],
  },
  'DELETE /api/contacts/{outsider}': {
    kind: 'rest',
    route: 'DELETE /api/contacts/:id',
    path: (f) => `/api/contacts/${f.outsiderId}`,
    statuses: signedIn(200),
  },
  'GET /api/blocked-users': {
    kind: 'rest',
    route: 'GET /api/blocked-users',
    path: () => '/api/blocked-users',
    statuses: signedIn(200),
  },
  'POST /api/users/{outsider}/block': {
    kind: 'rest',
    route: 'POST /api/users/:id/block',
    path: (f) => `/api/users/${f.outsiderId}/block`,
    statuses: signedIn(200),
  },
  'DELETE /api/users/{outsider}/block': {
    kind: 'rest',
    route: 'DELETE /api/users/:id/block',
    path: (f) => `/api/users/${f.outsiderId}/block`,
    statuses: signedIn(200),
  },

  // --- voice preferences: always the caller's own ---
  'GET /api/voice-preferences': {
    kind: 'rest',
    route: 'GET /api/voice-preferences',
    path: () => '/api/voice-preferences',
    statuses: signedIn(200),
  },
  'PATCH /api/voice-preferences': {
    kind: 'rest',
    route: 'PATCH /api/voice-preferences',
    path: () => '/api/voice-preferences',
    json: () => ({ rogerBeep: true }),
    statuses: signedIn(200),
  },
  'PUT /api/voice-preferences/member-volumes/{target}': {
    kind: 'rest',
    route: 'PUT /api/voice-preferences/member-volumes/:memberId',
    path: (f) => `/api/voice-preferences/member-volumes/${f.targetId}`,
    json: () => ({ volume: 150 }),
    statuses: signedIn(200),
  },

  // --- Web Push: a device's subscription is the session's own; nobody reaches another's ---
  'GET /api/push/public-key': {
    kind: 'rest',
    route: 'GET /api/push/public-key',
    path: () => '/api/push/public-key',
    statuses: signedIn(200),
  },
  'POST /api/push/subscribe': {
    kind: 'rest',
    route: 'POST /api/push/subscribe',
    path: () => '/api/push/subscribe',
    json: () => ({
      endpoint: `https://push.example/${randomUUID()}`,
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    }),
    statuses: signedIn(200),
  },
  'POST /api/push/unsubscribe': {
    kind: 'rest',
    route: 'POST /api/push/unsubscribe',
    path: () => '/api/push/unsubscribe',
    json: () => ({ endpoint: 'https://push.example/not-subscribed' }),
    statuses: signedIn(200),
  },
  'GET /api/push/preferences': {
    kind: 'rest',
    route: 'GET /api/push/preferences',
    path: () => '/api/push/preferences',
    statuses: signedIn(200),
  },
  'PUT /api/push/preferences': {
    kind: 'rest',
    route: 'PUT /api/push/preferences',
    path: () => '/api/push/preferences',
    json: () => ({ calls: true, pokes: true, transmissions: true, channelAdds: true }),
    statuses: signedIn(200),
  },
  'GET /api/channels/{id}/notify': {
    kind: 'rest',
    route: 'GET /api/channels/:id/notify',
    path: (f) => `/api/channels/${f.channelId}/notify`,
    statuses: members(200, 403),
  },
  'PUT /api/channels/{id}/notify': {
    kind: 'rest',
    route: 'PUT /api/channels/:id/notify',
    path: (f) => `/api/channels/${f.channelId}/notify`,
    json: () => ({ notify: true }),
    statuses: members(200, 403),
  },
  'POST /api/push/test {a device not the caller\'s}': {
    kind: 'rest',
    route: 'POST /api/push/test',
    path: () => '/api/push/test',
    json: () => ({ endpoint: 'https://push.example/not-subscribed' }),
    statuses: signedIn(404),
  },

  // --- invites ---
  'POST /api/invite/generate {id}': {
    kind: 'rest',
    route: 'POST /api/invite/generate',
    path: () => '/api/invite/generate',
    json: (f) => ({ channelId: f.channelId }),
    statuses: readers(200, 403),
  },
  'GET /api/invite/generate?channelId={id} (from our own page)': {
    kind: 'rest',
    route: 'GET /api/invite/generate',
    path: (f) => `/api/invite/generate?channelId=${f.channelId}`,
    headers: { origin: '', 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' },
    statuses: readers(200, 403),
    writes: true,
  },
  'GET /api/invite/generate?channelId={id} (a navigation from another site)': {
    kind: 'rest',
    route: 'GET /api/invite/generate',
    path: (f) => `/api/invite/generate?channelId=${f.channelId}`,
    headers: { origin: '', 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'document' },
    statuses: everyone(403),
  },
  'POST /api/invite/accept': {
    kind: 'rest',
    route: 'POST /api/invite/accept',
    path: () => '/api/invite/accept',
    json: (f) => ({ token: f.inviteToken }),
    statuses: signedIn(200),
  },
  // The page a link opens names its channel and inviter to whoever holds the token (decision 047).
  'POST /api/invite/preview': {
    kind: 'rest',
    route: 'POST /api/invite/preview',
    path: () => '/api/invite/preview',
    json: (f) => ({ token: f.inviteToken }),
    statuses: everyone(200),
  },
  'GET /api/channels/{id}/invites': {
    kind: 'rest',
    route: 'GET /api/channels/:id/invites',
    path: (f) => `/api/channels/${f.channelId}/invites`,
    statuses: managers(200, 403),
  },
  'DELETE /api/channels/{id}/invites/{invite}': {
    kind: 'rest',
    route: 'DELETE /api/channels/:id/invites/:inviteId',
    path: (f) => `/api/channels/${f.channelId}/invites/${f.inviteId}`,
    statuses: managers(200, 403),
  },

  // --- usage and voice ---
  'GET /api/usage': {
    kind: 'rest',
    route: 'GET /api/usage',
    path: () => '/api/usage',
    statuses: signedIn(200),
  },
  'POST /api/usage/pay-as-you-go/enable': {
    kind: 'rest',
    route: 'POST /api/usage/pay-as-you-go/enable',
    path: () => '/api/usage/pay-as-you-go/enable',
    statuses: signedIn(200),
  },
  'POST /api/usage/pay-as-you-go/disable': {
    kind: 'rest',
    route: 'POST /api/usage/pay-as-you-go/disable',
    path: () => '/api/usage/pay-as-you-go/disable',
    statuses: signedIn(200),
  },
  'POST /api/usage/session/start': {
    kind: 'rest',
    route: 'POST /api/usage/session/start',
    path: () => '/api/usage/session/start',
    json: (f) => ({ channelId: f.channelId }),
    statuses: members(200, 403),
  },
  'POST /api/usage/session/end {own}': {
    kind: 'rest',
    route: 'POST /api/usage/session/end',
    path: () => '/api/usage/session/end',
    json: (f) => ({ sessionId: f.ownSessionId }),
    statuses: signedIn(200),
  },
  "POST /api/usage/session/end {target's}": {
    kind: 'rest',
    route: 'POST /api/usage/session/end',
    path: () => '/api/usage/session/end',
    json: (f) => ({ sessionId: f.targetSessionId }),
    statuses: signedIn(403),
  },
  'POST /api/livekit-token {self}': {
    kind: 'rest',
    route: 'POST /api/livekit-token',
    path: () => '/api/livekit-token',
    json: (f) => ({ channelId: f.channelId, userId: f.self, userName: 'Me' }),
    statuses: members(200, 403),
  },
  'POST /api/livekit-token {someone else}': {
    kind: 'rest',
    route: 'POST /api/livekit-token',
    path: () => '/api/livekit-token',
    json: (f) => ({ channelId: f.channelId, userId: f.targetId, userName: 'Them' }),
    statuses: members(403, 403),
  },
  'GET /api/calls/ice-servers': {
    kind: 'rest',
    route: 'GET /api/calls/ice-servers',
    path: () => '/api/calls/ice-servers',
    statuses: signedIn(200),
  },
  'GET /api/calls': {
    kind: 'rest',
    route: 'GET /api/calls',
    path: () => '/api/calls',
    statuses: signedIn(200),
  },

  // --- owner setup (this server has its owner) ---
  'GET /api/setup': {
    kind: 'rest',
    route: 'GET /api/setup',
    path: () => '/api/setup',
    statuses: signedIn(200),
  },
  'POST /api/setup/claim': {
    kind: 'rest',
    route: 'POST /api/setup/claim',
    path: () => '/api/setup/claim',
    json: () => ({ code: 'AAAAA-AAAAA-AAAAA-AAAAA' }),
    statuses: signedIn(409),
  },

  // --- /ws: presence and calls ---
  'ws join_channel': {
    kind: 'socket',
    socket: 'ws',
    message: 'join_channel',
    outcomes: memberEffect,
    run: async (c) => {
      c.ws!.send({ type: 'join_channel', channelId: c.f.channelId });
      await c.barrier();
      return (await c.presenceOf(c.f.self)).isActiveInChannel ? E : I;
    },
  },
  'ws start_talking': {
    kind: 'socket',
    socket: 'ws',
    message: 'start_talking',
    outcomes: memberEffect,
    run: async (c) => {
      c.ws!.send({ type: 'join_channel', channelId: c.f.channelId });
      c.ws!.send({ type: 'start_talking', channelId: c.f.channelId });
      await c.barrier();
      return (await c.presenceOf(c.f.self)).isTalking ? E : I;
    },
  },
  'ws stop_talking': {
    kind: 'socket',
    socket: 'ws',
    message: 'stop_talking',
    outcomes: memberEffect,
    run: async (c) => {
      c.ws!.send({ type: 'join_channel', channelId: c.f.channelId });
      c.ws!.send({ type: 'start_talking', channelId: c.f.channelId });
      c.ws!.send({ type: 'stop_talking', channelId: c.f.channelId });
      await c.barrier();
      const presence = await c.presenceOf(c.f.self);
      return presence.isActiveInChannel && !presence.isTalking ? E : I;
    },
  },
  'ws visibility': {
    kind: 'socket',
    socket: 'ws',
    message: 'visibility',
    // Only ever about the socket's own sign-in session: what the server stops pushing to.
    outcomes: ownEffect,
    run: async (c) => {
      c.ws!.send({ type: 'visibility', visible: true });
      await c.barrier();
      return (await c.visibleSessions(c.f.self)).size > 0 ? E : I;
    },
  },
  'ws floor_request': {
    kind: 'socket',
    socket: 'ws',
    message: 'floor_request',
    // In a walkie-talkie channel: its members take the floor; nobody else gets it.
    outcomes: memberEffect,
    run: async (c) => {
      await c.db.update(channels).set({ talkMode: 'walkie' }).where(eq(channels.id, c.f.channelId));
      await inChannelVoice(c);
      c.ws!.send({ type: 'join_channel', channelId: c.f.channelId });
      c.ws!.send({ type: 'floor_request', channelId: c.f.channelId });
      await c.barrier();
      return (await floorHeldBy(c, c.f.self)) ? E : I;
    },
  },
  'ws floor_release': {
    kind: 'socket',
    socket: 'ws',
    message: 'floor_release',
    outcomes: memberEffect,
    run: async (c) => {
      await c.db.update(channels).set({ talkMode: 'walkie' }).where(eq(channels.id, c.f.channelId));
      await inChannelVoice(c);
      c.ws!.send({ type: 'join_channel', channelId: c.f.channelId });
      c.ws!.send({ type: 'floor_request', channelId: c.f.channelId });
      c.ws!.send({ type: 'floor_release', channelId: c.f.channelId });
      await c.barrier();
      if (!(await floorHeldBy(c, c.f.self))) return I;
      return (await floorHeldBy(c, null)) ? E : I;
    },
  },
  'ws leave_channel': {
    kind: 'socket',
    socket: 'ws',
    message: 'leave_channel',
    outcomes: memberEffect,
    run: async (c) => {
      c.ws!.send({ type: 'join_channel', channelId: c.f.channelId });
      await c.barrier();
      const joined = (await c.presenceOf(c.f.self)).isActiveInChannel;
      c.ws!.send({ type: 'leave_channel', channelId: c.f.channelId });
      await c.barrier();
      return joined && !(await c.presenceOf(c.f.self)).isActiveInChannel ? E : I;
    },
  },
  'ws initiate_call {receiver}': {
    kind: 'socket',
    socket: 'ws',
    message: 'initiate_call',
    // Anyone signed in may call anyone — except someone the receiver blocked.
    outcomes: [N, E, E, E, E, E, E, E, I],
    run: async (c) => {
      const callId = randomUUID();
      c.ws!.send({
        type: 'initiate_call',
        callId,
        receiverId: c.f.receiverId,
        roomName: `room-${callId}`,
      });
      // The socket's messages are handled in order: after the barrier, a refusal has arrived or never will.
      await c.barrier();
      const answer = await c
        .ws!.next<{ type: string; callId: string }>(
          (m) => m.callId === callId && m.type === 'call_declined',
          1,
        )
        .catch(() => null);
      const [row] = await c.db.select().from(calls).where(eq(calls.id, callId));
      return row && !answer ? E : I;
    },
  },
  'ws call_accepted {a call to target}': {
    kind: 'socket',
    socket: 'ws',
    message: 'call_accepted',
    // Only the receiver may answer; no caller here is the receiver.
    outcomes: nobody,
    run: async (c) => {
      c.ws!.send({ type: 'call_accepted', callId: c.f.ringingCallId });
      await c.barrier();
      return (await c.callStatus(c.f.ringingCallId)) === 'active' ? E : I;
    },
  },
  'ws call_declined {a call to target}': {
    kind: 'socket',
    socket: 'ws',
    message: 'call_declined',
    outcomes: nobody,
    run: async (c) => {
      c.ws!.send({ type: 'call_declined', callId: c.f.ringingCallId });
      await c.barrier();
      return (await c.callStatus(c.f.ringingCallId)) === 'declined' ? E : I;
    },
  },
  'ws call_ended {a call of others}': {
    kind: 'socket',
    socket: 'ws',
    message: 'call_ended',
    outcomes: nobody,
    run: async (c) => {
      c.ws!.send({ type: 'call_ended', callId: c.f.ringingCallId });
      await c.barrier();
      // Ended by anyone but the receiver, a ringing call becomes a missed one.
      return (await c.callStatus(c.f.ringingCallId)) !== 'ringing' ? E : I;
    },
  },

  // --- /ws/webrtc: one-to-one call signalling, parties only ---
  'webrtc join_room {a call of others}': {
    kind: 'socket',
    socket: 'ws/webrtc',
    message: 'join_room',
    outcomes: nobody,
    run: async (c) => {
      const closed = c.signal!.closed();
      c.signal!.send({ type: 'join_room', roomName: c.f.activeRoom });
      const result = await Promise.race([closed, sleep(1500).then(() => null)]);
      return result?.code === 4403 ? I : E;
    },
  },
  ...Object.fromEntries(
    (['offer', 'answer', 'ice_candidate'] as const).map((type) => [
      `webrtc ${type} {into a call of others}`,
      {
        kind: 'socket',
        socket: 'ws/webrtc',
        message: type,
        outcomes: nobody,
        run: async (c: SocketCase) => {
          const payload =
            type === 'ice_candidate'
              ? {
                  candidate: {
                    candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host',
                    sdpMid: '0',
                    sdpMLineIndex: 0,
                  },
                }
              : { [type]: { type, sdp: 'v=0\r\n' } };
          c.signal!.send({ type, roomName: c.f.activeRoom, ...payload });
          // The target, a party who joined the room, must hear nothing from a stranger.
          const heard = await c.party!.next((m) => m.type === type, 800).catch(() => null);
          return heard ? E : I;
        },
      } satisfies SocketRow,
    ]),
  ),

  // --- /rtc: the built-in SFU, which admits by voice token only ---
  'rtc join {own voice token}': {
    kind: 'socket',
    socket: 'rtc',
    message: 'join',
    // A token is issued to members only, so only they ever join (the token route decides).
    outcomes: [I, I, E, E, I, E, I, I, E],
    run: async (c) => {
      const response = await c.client!.request('/api/livekit-token', {
        method: 'POST',
        json: { channelId: c.f.channelId, userId: c.f.self, userName: 'Me' },
      });
      const token = response.ok ? (await body<{ token: string }>(response)).token : 'no-token';
      const reply = await c.rtc({ type: 'join', version: VOICE_SIGNALLING_VERSION, token });
      return reply === 'joined' ? E : I;
    },
  },
  'rtc resume {made-up session}': {
    kind: 'socket',
    socket: 'rtc',
    message: 'resume',
    outcomes: rtcRefused,
    run: async (c) =>
      (await c.rtc({
        type: 'resume',
        version: VOICE_SIGNALLING_VERSION,
        token: 'x',
        sessionId: 'nope',
      })) === 'joined'
        ? E
        : I,
  },
  ...Object.fromEntries(
    (
      [
        ['answer', { type: 'answer', negotiationId: 0, sdp: 'v=0' }],
        ['ice_candidate', { type: 'ice_candidate', candidate: { candidate: '' } }],
        ['restart_ice', { type: 'restart_ice' }],
        ['leave', { type: 'leave' }],
      ] as const
    ).map(([type, message]) => [
      `rtc ${type} {before joining}`,
      {
        kind: 'socket',
        socket: 'rtc',
        message: type,
        outcomes: rtcRefused,
        run: async (c: SocketCase) => ((await c.rtc(message)) === 'joined' ? E : I),
      } satisfies SocketRow,
    ]),
  ),
};

/** Everything a socket row may use for one actor. */
interface SocketCase {
  f: Fixture;
  db: TestServer['database']['db'];
  client: TestClient | null;
  ws: TestSocket | null;
  signal: TestSocket | null;
  /** The target's own signalling socket, joined to the active call's room. */
  party: TestSocket | null;
  /** Resolves once the server handled everything this actor sent on /ws before it. */
  barrier(): Promise<void>;
  presenceOf(userId: string): Promise<{ isActiveInChannel: boolean; isTalking: boolean }>;
  /** The user's sign-in sessions with a visible page (their devices get no push). */
  visibleSessions(userId: string): Promise<Set<string>>;
  callStatus(callId: string): Promise<string | undefined>;
  /** Sends one message on a fresh /rtc socket: 'joined', or the close code. */
  rtc(message: unknown): Promise<'joined' | number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The actor is in the channel's voice, as the voice server records a join (its usage row): only
 * someone connected to a channel's voice may hold its floor (decision 023).
 */
const inChannelVoice = async (c: SocketCase) => {
  await c.db.insert(usageSessions).values({
    userId: c.f.self,
    channelId: c.f.channelId,
    voiceIdentity: `${c.f.self}-1-test`,
    voiceConnection: randomUUID(),
  });
};

/** Whether the actor's /ws socket was told the channel's floor is held by `holderId` (null: free). */
const floorHeldBy = (c: SocketCase, holderId: string | null) =>
  c
    .ws!.next<{ type: string; channelId: number; holder: { id: string } | null }>(
      (m) => m.type === 'floor_state' && m.channelId === c.f.channelId && (m.holder?.id ?? null) === holderId,
      500,
    )
    .then(
      () => true,
      () => false,
    );
const ids = {} as Record<Exclude<Actor, 'guest'>, string>;

const REST_CASES = Object.entries(ROWS)
  .filter((entry): entry is [string, RestRow] => entry[1].kind === 'rest')
  .flatMap(([name, row]) =>
    ACTORS.map((actor, i) => ({
      name,
      row,
      actor,
      status: row.statuses === 'same' ? 'same' : row.statuses[i]!,
    })),
  );
const SOCKET_CASES = Object.entries(ROWS)
  .filter((entry): entry is [string, SocketRow] => entry[1].kind === 'socket')
  .flatMap(([name, row]) =>
    ACTORS.map((actor, i) => ({ name, row, actor, outcome: row.outcomes[i]! })),
  );

// The matrix checks rules, not SQL dialects: one database (PostgreSQL when there is one, it is faster).
const database = testDatabases().at(-1)!;

describe(`authorization of every route and socket message on ${database.name}`, () => {
  let server: TestServer;
  let people: Record<Exclude<Actor, 'guest'>, Person>;
  let target: Person, outsider: Person, receiver: Person, removed: Person;
  const sameStatus = new Map<string, number>();

  beforeAll(async () => {
    // Behind a proxy (TRUST_PROXY), each actor comes from an address of their own, as people do.
    server = await startTestServer(await database.open(), { TRUST_PROXY: 'true' });
    const superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    const make = (name: string) =>
      signIn(server, name, `${name.split(' ')[0]!.toLowerCase()}@example.com`);
    people = {
      superadmin,
      free: await make('Fred Free'),
      memberTier: await make('Mia Membertier'),
      channelMember: await make('Cam Channelmember'),
      nonMember: await make('Nora Nonmember'),
      channelAdmin: await make('Ann Admin'),
      adminTierNonMember: await make('Abe Otheradmin'),
      blocked: await make('Bob Blocked'),
    };
    target = await make('Tia Target');
    outsider = await make('Otto Outsider');
    receiver = await make('Rita Receiver');
    removed = await make('Rex Removed');
    await setTier(superadmin, removed, 'member');
    await setTier(superadmin, people.memberTier, 'member');
    await setTier(superadmin, people.nonMember, 'member');
    await setTier(superadmin, people.channelAdmin, 'admin');
    await setTier(superadmin, people.adminTierNonMember, 'admin');
    for (const [actor, person] of Object.entries(people))
      ids[actor as Exclude<Actor, 'guest'>] = person.id;
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('has a row for every registered route and every client message of every socket', () => {
    const covered = new Set(
      Object.values(ROWS)
        .filter((r): r is RestRow => r.kind === 'rest')
        .map((r) => r.route),
    );
    const registered = server.app.routeCatalog
      .filter((route) => !['/ws', '/ws/webrtc', '/rtc'].includes(route.url))
      .map((route) => `${route.method} ${route.url}`);
    expect(registered.filter((route) => !covered.has(route))).toEqual([]);
    expect([...covered].filter((route) => !registered.includes(route))).toEqual([]);
    const socketRows = Object.values(ROWS).filter((r): r is SocketRow => r.kind === 'socket');
    const messagesOf = (socket: SocketRow['socket']) =>
      new Set(socketRows.filter((r) => r.socket === socket).map((r) => r.message));
    const typesOf = (union: { options: readonly { shape: { type: { value: string } } }[] }) =>
      union.options.map((o) => o.shape.type.value);
    expect(typesOf(wsClientMessageSchema).filter((t) => !messagesOf('ws').has(t))).toEqual([]);
    expect(typesOf(callClientMessageSchema).filter((t) => !messagesOf('ws').has(t))).toEqual([]);
    expect(
      typesOf(signalClientMessageSchema).filter((t) => !messagesOf('ws/webrtc').has(t)),
    ).toEqual([]);
    expect(typesOf(clientVoiceMessageSchema).filter((t) => !messagesOf('rtc').has(t))).toEqual([]);
  });

  async function snapshot() {
    const { db } = server.database;
    return {
      users: await db
        .select({ id: users.id, tier: users.subscriptionTier, payg: users.payAsYouGoEnabled })
        .from(users)
        .orderBy(asc(users.id)),
      channels: await db.select().from(channels).orderBy(asc(channels.id)),
      members: await db
        .select()
        .from(channelMembers)
        .orderBy(asc(channelMembers.channelId), asc(channelMembers.userId)),
      contacts: await db
        .select()
        .from(contacts)
        .orderBy(asc(contacts.ownerId), asc(contacts.contactId)),
      blocks: await db.select().from(blocks).orderBy(asc(blocks.blockerId), asc(blocks.blockedId)),
      invites: await db.select().from(invites).orderBy(asc(invites.id)),
      removals: await db
        .select()
        .from(channelRemovals)
        .orderBy(asc(channelRemovals.channelId), asc(channelRemovals.userId)),
      usage: await db.select().from(usageSessions).orderBy(asc(usageSessions.id)),
      calls: await db.select().from(calls).orderBy(asc(calls.id)),
      voicePreferences: await db
        .select()
        .from(voicePreferences)
        .orderBy(asc(voicePreferences.userId)),
      memberVolumes: await db
        .select()
        .from(memberVolumes)
        .orderBy(asc(memberVolumes.listenerId), asc(memberVolumes.memberId)),
      sosAlerts: await db.select().from(sosAlerts).orderBy(asc(sosAlerts.id)),
      sosAcks: await db.select().from(sosAcks).orderBy(asc(sosAcks.alertId), asc(sosAcks.userId)),
    };
  }

  /** A fresh channel and its surroundings, written straight to the database: fast, and the same every time. */
  async function freshFixture(actor: Actor): Promise<Fixture> {
    const { db } = server.database;
    await db.delete(channels);
    await db.delete(contacts);
    await db.delete(blocks);
    await db.delete(usageSessions);
    await db.delete(calls);
    await db
      .update(users)
      .set({ subscriptionTier: 'free', payAsYouGoEnabled: false })
      .where(inArray(users.id, [outsider.id, target.id]));
    const [channel] = await db
      .insert(channels)
      .values({ name: 'Under test', createdBy: people.channelAdmin.id, sos: true })
      .returning();
    const channelId = channel!.id;
    await db
      .insert(channelMembers)
      .values([
        { channelId, userId: people.channelAdmin.id, role: 'admin' },
        ...[people.memberTier, people.channelMember, people.blocked, target].map((p) => ({
          channelId,
          userId: p.id,
        })),
      ]);
    await db.insert(blocks).values([
      { blockerId: target.id, blockedId: people.blocked.id },
      { blockerId: outsider.id, blockedId: people.blocked.id },
      { blockerId: receiver.id, blockedId: people.blocked.id },
    ]);
    const self = actor === 'guest' ? outsider : people[actor];
    if (actor !== 'guest')
      await db.insert(contacts).values({ ownerId: self.id, contactId: outsider.id });
    const inviteToken = newInviteToken();
    const [invite] = await db
      .insert(invites)
      .values({
        tokenHash: hashInviteToken(inviteToken),
        channelId,
        createdBy: people.channelAdmin.id,
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const staleInviteToken = newInviteToken();
    await db.insert(invites).values({
      tokenHash: hashInviteToken(staleInviteToken),
      channelId,
      createdBy: people.channelAdmin.id,
      createdAt: hoursAgo(2),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await db.insert(channelRemovals).values({ channelId, userId: removed.id, removedAt: hoursAgo(1) });
    const [own] = await db.insert(usageSessions).values({ userId: self.id, channelId }).returning();
    const [theirs] = await db
      .insert(usageSessions)
      .values({ userId: target.id, channelId })
      .returning();
    const sosAlertId = randomUUID();
    await db.insert(sosAlerts).values({
      id: sosAlertId,
      channelId,
      senderId: target.id,
      talkUntil: new Date(Date.now() + 10_000),
    });
    const ringingCallId = randomUUID();
    const activeCallId = randomUUID();
    await db.insert(calls).values([
      {
        id: ringingCallId,
        roomName: `ring-${ringingCallId}`,
        callerId: outsider.id,
        receiverId: target.id,
      },
      {
        id: activeCallId,
        roomName: `live-${activeCallId}`,
        callerId: outsider.id,
        receiverId: target.id,
        status: 'active',
        answeredAt: new Date(),
      },
    ]);
    return {
      channelId,
      self: self.id,
      selfEmail: self.email,
      targetId: target.id,
      targetEmail: target.email,
      outsiderId: outsider.id,
      outsiderEmail: outsider.email,
      receiverId: receiver.id,
      memberId: people.channelMember.id,
      inviteToken,
      inviteId: invite!.id,
      staleInviteToken,
      removedId: removed.id,
      removedEmail: removed.email,
      ownSessionId: own!.id,
      targetSessionId: theirs!.id,
      ringingCallId,
      activeRoom: `live-${activeCallId}`,
      sosAlertId,
    };
  }

  /** A removal by the channel's admin an hour ago, as `DELETE …/members/{id}` records it. */
  async function removeFromChannel(f: Fixture, userId: string): Promise<void> {
    const { db } = server.database;
    await db
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, f.channelId), eq(channelMembers.userId, userId)));
    await db
      .insert(channelRemovals)
      .values({ channelId: f.channelId, userId, removedAt: new Date(Date.now() - 3_600_000) });
  }

  it.each(REST_CASES)('$name as $actor → $status', async ({ name, row, actor, status }) => {
    const fixture = await freshFixture(actor);
    const client = actor === 'guest' ? new TestClient(server.baseUrl) : people[actor].client;
    if (row.removeSelf && actor !== 'guest' && actor !== 'channelAdmin') await removeFromChannel(fixture, fixture.self);
    const before = await snapshot();
    const json = row.json?.(fixture);
    const response = await client.request(row.path(fixture), {
      method: row.route.split(' ')[0]!,
      headers: { ...row.headers, 'x-forwarded-for': `198.51.100.${ACTORS.indexOf(actor) + 1}` },
      ...(json === undefined ? {} : { json }),
    });
    try {
      if (status === 'same') {
        expect(response.status).toBeLessThan(500);
        const first = sameStatus.get(name);
        if (first === undefined) sameStatus.set(name, response.status);
        else expect(response.status).toBe(first);
      } else {
        expect(response.status).toBe(status);
      }
      const text = await response.text();
      const answer: unknown =
        response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text;
      const refused = typeof status === 'number' && status >= 400;
      if (refused) {
        // A refusal carries a message (and for channel creation an error) — never data.
        // (The voice token's refusals also name the provider, for the spec's "{provider}" texts.)
        expect(
          Object.keys(answer as object).every((key) => ['message', 'error', 'provider'].includes(key)),
        ).toBe(true);
        const message = row.refusal?.(actor);
        if (message !== undefined) expect((answer as { message: string }).message).toBe(message);
      }
      // Refusals, reads and the provider's own endpoints change nothing of the app's data.
      const readOnly = row.route.startsWith('GET ') || status === 'same';
      if ((refused || readOnly) && !row.writes) expect(await snapshot()).toEqual(before);
      if (typeof status === 'number' && !refused) await row.check?.(fixture, actor, answer, server.database.db);
    } finally {
      if (row.endsSession && actor !== 'guest') {
        const again = await signIn(server, people[actor].name, people[actor].email);
        people[actor] = again;
      }
    }
  });

  it.each(SOCKET_CASES)('$name as $actor → $outcome', async ({ row, actor, outcome }) => {
    const f = await freshFixture(actor);
    const client = actor === 'guest' ? new TestClient(server.baseUrl) : people[actor].client;
    const opened: TestSocket[] = [];
    const open = async (path: string, as: TestClient) => {
      const socket = await TestSocket.open(as, { path });
      opened.push(socket);
      return socket;
    };
    try {
      if (row.socket !== 'rtc') {
        const upgrade = await open(`/${row.socket}`, client).catch((error: Error) => error);
        if (upgrade instanceof Error) {
          expect(upgrade.message).toBe('upgrade refused: 401');
          expect(outcome).toBe(N);
          return;
        }
      }
      const ws = row.socket === 'ws' ? opened[0]! : null;
      const signal = row.socket === 'ws/webrtc' ? opened[0]! : null;
      let party: TestSocket | null = null;
      if (row.socket === 'ws/webrtc') {
        party = await open('/ws/webrtc', target.client);
        party.send({ type: 'join_room', roomName: f.activeRoom });
        await sleep(100);
      }
      let probes = 0;
      const c: SocketCase = {
        f,
        db: server.database.db,
        client,
        ws,
        signal,
        party,
        barrier: async () => {
          // Calling oneself is always refused with a reply; once it arrives, all before it was handled.
          const callId = `barrier-${++probes}-${randomUUID()}`;
          ws!.send({ type: 'initiate_call', callId, receiverId: f.self, roomName: `r-${callId}` });
          await ws!.next((m) => m.callId === callId);
        },
        visibleSessions: (userId) => server.app.ctx.presence.visibleSessions(userId),
        presenceOf: async (userId) => {
          const state = (await server.app.ctx.presence.presenceIn(f.channelId, [userId])).get(
            userId,
          );
          return {
            isActiveInChannel: state?.isActiveInChannel ?? false,
            isTalking: state?.isTalking ?? false,
          };
        },
        callStatus: async (callId) =>
          (await server.database.db.select().from(calls).where(eq(calls.id, callId)))[0]?.status,
        rtc: (message) =>
          new Promise((resolve) => {
            const socket = new WebSocket(new URL('/rtc', server.baseUrl.replace('http', 'ws')), {
              headers: { origin: server.baseUrl },
            });
            socket.once('open', () => socket.send(JSON.stringify(message)));
            socket.on('message', (data: Buffer) => {
              const parsed = JSON.parse(data.toString()) as { type: string };
              if (parsed.type === 'joined') {
                resolve('joined');
                socket.close();
              }
            });
            socket.once('close', (code) => resolve(code));
          }),
      };
      expect(await row.run(c)).toBe(outcome);
    } finally {
      for (const socket of opened) await socket.close();
    }
  });
});
