import { z } from 'zod';
import { iceCandidateInitSchema, iceServerListSchema } from './ice.js';
import { plainText } from './text.js';

/**
 * One-to-one calls (spec §3 "Call", §4 "Calls", §7 sockets). Call state messages travel on `/ws`;
 * the peer-to-peer signalling (offer, answer, ICE) on its own socket, `/ws/webrtc`.
 */
export const WEBRTC_WS_PATH = '/ws/webrtc';

/** Spec §9: an unanswered call rings for 30 s; the peer connection retries after 3 s. */
export const RING_TIMEOUT_MS = 30_000;
export const PEER_RECONNECT_DELAY_MS = 3000;
export const RINGTONE_REPEAT_MS = 3000;

/** Ids the client makes up (a UUID) — letters, digits, dash and underscore only. */
export const callIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters, digits, - or _');
export const roomNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,80}$/, 'must be 8-80 letters, digits, - or _');
const userId = plainText('A user id').min(1).max(128);

/** Reasons the server gives in `call_declined` / `call_ended`; the client shows them as toasts. */
export const DECLINE_REASONS = {
  declined: 'Call declined',
  busy: 'User is busy',
  unavailable: 'User is not available',
  self: 'You cannot call yourself',
  invalid: 'Call could not be started',
} as const;

// --- Sent by the client on /ws -------------------------------------------------------------------

/** The server acts for the socket's user: a `callerId` naming someone else is refused. */
export const initiateCallSchema = z.object({
  type: z.literal('initiate_call'),
  callId: callIdSchema,
  callerId: userId.optional(),
  receiverId: userId,
  roomName: roomNameSchema,
});
export type InitiateCall = z.infer<typeof initiateCallSchema>;

/** `deviceId` names the accepting tab so the receiver's other devices stop ringing and it does not. */
export const acceptCallSchema = z.object({
  type: z.literal('call_accepted'),
  callId: callIdSchema,
  roomName: roomNameSchema.optional(),
  deviceId: plainText('A device id').max(64).optional(),
});
export type AcceptCall = z.infer<typeof acceptCallSchema>;

export const declineCallSchema = z.object({
  type: z.literal('call_declined'),
  callId: callIdSchema,
});
export type DeclineCall = z.infer<typeof declineCallSchema>;

export const endCallSchema = z.object({ type: z.literal('call_ended'), callId: callIdSchema });
export type EndCall = z.infer<typeof endCallSchema>;

export const callClientMessageSchema = z.discriminatedUnion('type', [
  initiateCallSchema,
  acceptCallSchema,
  declineCallSchema,
  endCallSchema,
]);
export type CallClientMessage = z.infer<typeof callClientMessageSchema>;

// --- Sent by the server on /ws -------------------------------------------------------------------

/** Spec §3 "Call": `contact*` is the other party as the receiving side sees it (the caller). */
export const incomingCallSchema = z.object({
  type: z.literal('incoming_call'),
  callId: callIdSchema,
  roomName: roomNameSchema,
  callerId: userId,
  callerName: z.string(),
  callerProfileImageUrl: z.string().nullable(),
  contactId: userId,
  contactName: z.string(),
  contactProfileImageUrl: z.string().nullable(),
  isInitiator: z.literal(false),
});
export type IncomingCall = z.infer<typeof incomingCallSchema>;

export const callAcceptedSchema = z.object({
  type: z.literal('call_accepted'),
  callId: callIdSchema,
  roomName: roomNameSchema,
});
export type CallAccepted = z.infer<typeof callAcceptedSchema>;

export const callDeclinedSchema = z.object({
  type: z.literal('call_declined'),
  callId: callIdSchema,
  reason: z.string().optional(),
});
export type CallDeclined = z.infer<typeof callDeclinedSchema>;

export const CALL_END_REASONS = [
  'hangup',
  'answered_elsewhere',
  'disconnected',
  'declined_elsewhere',
] as const;
export const callEndedSchema = z.object({
  type: z.literal('call_ended'),
  callId: callIdSchema,
  reason: z.enum(CALL_END_REASONS).optional(),
  /** With `answered_elsewhere`: the device that took the call keeps it. */
  deviceId: z.string().optional(),
});
export type CallEnded = z.infer<typeof callEndedSchema>;

export const callMissedSchema = z.object({ type: z.literal('call_missed'), callId: callIdSchema });
export type CallMissed = z.infer<typeof callMissedSchema>;

export const callServerMessageSchema = z.discriminatedUnion('type', [
  incomingCallSchema,
  callAcceptedSchema,
  callDeclinedSchema,
  callEndedSchema,
  callMissedSchema,
]);
export type CallServerMessage = z.infer<typeof callServerMessageSchema>;

// --- /ws/webrtc signalling (spec §3 "Signaling messages") ----------------------------------------

const sdp = <T extends 'offer' | 'answer'>(type: T) =>
  z.object({ type: z.literal(type), sdp: z.string().max(14_000) });

export const joinRoomSchema = z.object({
  type: z.literal('join_room'),
  roomName: roomNameSchema,
  userId: userId.optional(),
});
export const offerSchema = z.object({
  type: z.literal('offer'),
  roomName: roomNameSchema,
  userId: userId.optional(),
  offer: sdp('offer'),
});
export const answerSchema = z.object({
  type: z.literal('answer'),
  roomName: roomNameSchema,
  userId: userId.optional(),
  answer: sdp('answer'),
});
export const iceCandidateSchema = z.object({
  type: z.literal('ice_candidate'),
  roomName: roomNameSchema,
  userId: userId.optional(),
  candidate: iceCandidateInitSchema.nullable(),
});
export const peerJoinedSchema = z.object({
  type: z.literal('peer_joined'),
  roomName: roomNameSchema,
  userId,
});

export const signalClientMessageSchema = z.discriminatedUnion('type', [
  joinRoomSchema,
  offerSchema,
  answerSchema,
  iceCandidateSchema,
]);
export type SignalClientMessage = z.infer<typeof signalClientMessageSchema>;

/** What the other party receives: the sender's message with the sender's real user id. */
export const signalServerMessageSchema = z.discriminatedUnion('type', [
  offerSchema.extend({ userId }),
  answerSchema.extend({ userId }),
  iceCandidateSchema.extend({ userId }),
  peerJoinedSchema,
]);
export type SignalServerMessage = z.infer<typeof signalServerMessageSchema>;

// --- REST ----------------------------------------------------------------------------------------

/** `GET /api/calls/ice-servers`: from ICE_SERVERS (STUN by default, TURN when configured). */
export const iceServersResponseSchema = z.object({ iceServers: iceServerListSchema });
export type IceServersResponse = z.infer<typeof iceServersResponseSchema>;

export const CALL_OUTCOMES = ['answered', 'missed', 'declined', 'cancelled', 'ongoing'] as const;

/** `GET /api/calls`: the signed-in user's recent calls, newest first. */
export const callHistoryEntrySchema = z.object({
  callId: z.string(),
  direction: z.enum(['outgoing', 'incoming']),
  contactId: z.string(),
  contactName: z.string(),
  contactProfileImageUrl: z.string().nullable(),
  outcome: z.enum(CALL_OUTCOMES),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationSeconds: z.number().int().nonnegative(),
});
export type CallHistoryEntry = z.infer<typeof callHistoryEntrySchema>;
export const callHistoryResponseSchema = z.array(callHistoryEntrySchema);
