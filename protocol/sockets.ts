import { z } from 'zod';
import {
  acceptCallSchema,
  callAcceptedSchema,
  callDeclinedSchema,
  callEndedSchema,
  callMissedSchema,
  declineCallSchema,
  endCallSchema,
  incomingCallSchema,
  initiateCallSchema,
} from './calls.js';
import { plainText } from './text.js';
import { sosAlertMessageSchema } from './sos.js';
import { channelMemberSchema } from './channels.js';
import {
  floorDeniedSchema,
  floorReleaseSchema,
  floorRequestSchema,
  floorStateSchema,
} from './floor.js';

/** The `/ws` socket: presence, channel pushes and call state share one connection. */
export const WS_PATH = '/ws';
/** Messages larger than this are dropped (DESIGN §3 "Requests and sockets"). */
export const WS_MAX_MESSAGE_BYTES = 16 * 1024;

/** Why the server closed a `/ws` or `/ws/webrtc` socket (besides the standard 1000/1008/1009). */
export const WS_CLOSE_CODES = {
  /** Too many messages: the socket floods. */
  flooding: 1008,
  /**
   * The server is stopping (SIGTERM, a deploy): reconnect — behind a load balancer that is another
   * instance. The standard "Service Restart" code.
   */
  serverRestart: 1012,
  /** `?v=` names a protocol version the server does not speak. */
  unsupportedVersion: 4400,
  /** No session (signed out, expired). Reconnecting will not help until the user signs in again. */
  unauthorized: 4401,
  /** `/ws/webrtc`: not a party of the call whose room was asked for. */
  notAParty: 4403,
  /** The user already holds the maximum number of open sockets. */
  tooManySockets: 4429,
} as const;

const channelId = z.number().int().positive().max(2_147_483_647);

/**
 * Channel messages the client sends (spec §7): type, channelId and userId. The server never trusts
 * the userId — it acts for the socket's signed-in user — but the field is kept for the contract.
 */
const channelMessage = <T extends string>(type: T) =>
  z.object({ type: z.literal(type), channelId, userId: plainText('A user id').max(200).optional() });

/**
 * `listening` (decision 016): whether the user hears the channel now (ONLINE, not idle, no call).
 * Absent means true, as the spec's plain `join_channel`. Sent again to change it.
 */
export const joinChannelSchema = channelMessage('join_channel').extend({
  listening: z.boolean().optional(),
});
export const leaveChannelSchema = channelMessage('leave_channel');
export const startTalkingSchema = channelMessage('start_talking');
export const stopTalkingSchema = channelMessage('stop_talking');

export const channelClientMessageSchema = z.discriminatedUnion('type', [
  joinChannelSchema,
  leaveChannelSchema,
  startTalkingSchema,
  stopTalkingSchema,
]);
export type ChannelClientMessage = z.infer<typeof channelClientMessageSchema>;

/**
 * Whether the page of this socket is visible (`document.visibilityState`): sent on open and on every
 * change. A sign-in session with a visible page somewhere is present, and its device gets no push
 * notification (it sees the event in the page). A socket that has not said is taken as hidden.
 */
export const visibilitySchema = z.object({ type: z.literal('visibility'), visible: z.boolean() });
export type VisibilityMessage = z.infer<typeof visibilitySchema>;

/** A member's card changed; clients update it in place by id, or append it (spec §3). */
export const memberUpdateSchema = z.object({
  type: z.literal('member_update'),
  channelId,
  member: channelMemberSchema,
});
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

/** Someone poked you (DESIGN §3 "Poke"). */
export const pokeMessageSchema = z.object({
  type: z.literal('poke'),
  channelId,
  from: z.object({ id: z.string(), name: z.string() }),
});
export type PokeMessage = z.infer<typeof pokeMessageSchema>;

/** Membership or channel changed: refetch channel lists and members now instead of at the next poll. */
export const CHANNEL_CHANGES = [
  'member_added',
  'member_removed',
  'member_muted',
  'channel_deleted',
  /** The channel became open or walkie-talkie. */
  'talk_mode_changed',
  /** A transmission was kept, or kept ones were deleted: refetch the list. */
  'transmissions_changed',
  /** The channel became an SOS channel or stopped being one, or its SOS seconds changed (decision 050). */
  'sos_changed',
] as const;
export const channelChangedSchema = z.object({
  type: z.literal('channel_changed'),
  channelId,
  change: z.enum(CHANNEL_CHANGES),
  /** The user the change is about (added, removed or muted), when there is one. */
  userId: z.string().optional(),
  /**
   * `member_muted`, to the muted member's own devices only: whether they are muted now and the
   * admin who did it (the signed-in admin the server acted for, never a client's claim). Optional,
   * so older clients and the channel's other viewers read the message as before.
   */
  muted: z.boolean().optional(),
  by: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type ChannelChanged = z.infer<typeof channelChangedSchema>;

export const channelServerMessageSchema = z.discriminatedUnion('type', [
  memberUpdateSchema,
  pokeMessageSchema,
  channelChangedSchema,
]);
export type ChannelServerMessage = z.infer<typeof channelServerMessageSchema>;

/**
 * Your account changed (a superadmin changed your tier): read `/api/auth/user` again, since what the
 * app offers (creating channels, the idle timeout) depends on it.
 */
export const accountChangedSchema = z.object({ type: z.literal('account_changed') });
export type AccountChanged = z.infer<typeof accountChangedSchema>;

/** Everything a client may send on `/ws`: channel presence and call state. */
export const wsClientMessageSchema = z.discriminatedUnion('type', [
  joinChannelSchema,
  leaveChannelSchema,
  startTalkingSchema,
  stopTalkingSchema,
  visibilitySchema,
  floorRequestSchema,
  floorReleaseSchema,
  initiateCallSchema,
  acceptCallSchema,
  declineCallSchema,
  endCallSchema,
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;

/** Everything the server sends on `/ws`. */
export const wsServerMessageSchema = z.discriminatedUnion('type', [
  memberUpdateSchema,
  pokeMessageSchema,
  channelChangedSchema,
  accountChangedSchema,
  floorStateSchema,
  floorDeniedSchema,
  incomingCallSchema,
  callAcceptedSchema,
  callDeclinedSchema,
  callEndedSchema,
  callMissedSchema,
  sosAlertMessageSchema,
]);
export type WsServerMessage = z.infer<typeof wsServerMessageSchema>;
