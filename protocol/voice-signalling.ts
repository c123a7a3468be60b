import { z } from 'zod';
import { iceCandidateInitSchema, iceServerListSchema } from './ice.js';

/**
 * Signalling between the browser and the built-in SFU over the `/rtc` WebSocket.
 *
 * The server is always the offerer, so there is never glare: its first offer carries the caller's
 * microphone slot (`publishMid`), or a data channel for a caller who may not talk, so the connection
 * comes up before any talker's audio (decision 058); the next adds one send-only m-line per other
 * talker, and later offers add or remove talkers. The client only answers, trickles its ICE
 * candidates, and may ask for an ICE restart.
 */
export const VOICE_SIGNALLING_VERSION = 1;
export const VOICE_SIGNALLING_PATH = '/rtc';
/** SDPs grow with one m-line per talker; anything bigger than this is not a message of ours. */
export const MAX_VOICE_SIGNAL_BYTES = 256 * 1024;

/** WebSocket close codes the SFU uses, so the client can tell "try again" from "give up". */
export const VOICE_CLOSE_CODES = {
  unauthorized: 4001,
  unsupportedVersion: 4002,
  kicked: 4003,
  roomClosed: 4004,
  badMessage: 4005,
  replaced: 4006,
  sessionExpired: 4007,
  serverShutdown: 4008,
  /** The user already has as many voice connections as one person may (one per device). */
  tooManyConnections: 4009,
} as const;

const sdp = z.string().min(1).max(MAX_VOICE_SIGNAL_BYTES);
const identity = z.string().min(1).max(256);

export const voiceParticipantSchema = z.object({
  identity,
  userId: z.string().min(1).max(256),
  name: z.string().max(256),
});
export type VoiceParticipantInfo = z.infer<typeof voiceParticipantSchema>;

/** Which remote talker an m-line of the latest offer carries. */
export const trackMappingSchema = z.object({
  mid: z.string().min(1).max(64),
  identity,
  userId: z.string().min(1).max(256),
});
export type TrackMapping = z.infer<typeof trackMappingSchema>;

// ---- client → server ----

export const clientVoiceMessageSchema = z.discriminatedUnion('type', [
  /** First message of a new connection. Identity comes from the verified token, never from here. */
  z.object({
    type: z.literal('join'),
    version: z.number().int(),
    token: z.string().min(1).max(8192),
  }),
  /** First message of a replacement socket for a session whose peer connection may still be alive. */
  z.object({
    type: z.literal('resume'),
    version: z.number().int(),
    token: z.string().min(1).max(8192),
    sessionId: z.string().min(1).max(128),
  }),
  z.object({ type: z.literal('answer'), negotiationId: z.number().int().min(0), sdp }),
  z.object({ type: z.literal('ice_candidate'), candidate: iceCandidateInitSchema }),
  /** The client's ICE went down while signalling is up: ask for an offer with fresh credentials. */
  z.object({ type: z.literal('restart_ice') }),
  z.object({ type: z.literal('leave') }),
]);
export type ClientVoiceMessage = z.infer<typeof clientVoiceMessageSchema>;

// ---- server → client ----

export const serverVoiceMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('joined'),
    version: z.number().int(),
    sessionId: z.string(),
    roomName: z.string(),
    self: voiceParticipantSchema,
    participants: z.array(voiceParticipantSchema),
    canPublish: z.boolean(),
    /** The server's ICE servers (TURN for strict NATs), so the client needs no voice configuration. */
    iceServers: iceServerListSchema,
    /** True when this socket took over an existing session (its peer connection kept running). */
    resumed: z.boolean(),
  }),
  z.object({
    type: z.literal('offer'),
    negotiationId: z.number().int().min(0),
    sdp,
    /** The m-line the client sends its microphone on (only while it is on), once it exists. */
    publishMid: z.string().max(64).nullable(),
    tracks: z.array(trackMappingSchema),
  }),
  z.object({ type: z.literal('participant_joined'), participant: voiceParticipantSchema }),
  z.object({ type: z.literal('participant_left'), identity, userId: z.string() }),
  z.object({
    type: z.literal('speaking'),
    identity,
    userId: z.string(),
    speaking: z.boolean(),
    level: z.number().min(0).max(1),
  }),
  z.object({
    type: z.literal('publisher_muted'),
    identity,
    userId: z.string(),
    muted: z.boolean(),
  }),
  z.object({ type: z.literal('error'), code: z.string().max(64), message: z.string().max(1024) }),
]);
export type ServerVoiceMessage = z.infer<typeof serverVoiceMessageSchema>;

/** Parses one raw socket frame; `undefined` for oversized, non-JSON or unknown messages. */
export function parseVoiceMessage<T>(schema: z.ZodType<T>, raw: string): T | undefined {
  if (raw.length > MAX_VOICE_SIGNAL_BYTES) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** Voice rooms are named after channels (DESIGN.md "Voice tokens"). */
export function voiceRoomName(channelId: string | number): string {
  return `channel-${channelId}`;
}

/** The channel a voice room belongs to; undefined for a name that is not a channel room. */
export function channelIdOfRoom(roomName: string | undefined): number | undefined {
  const match = /^channel-(\d+)$/.exec(roomName ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Spec §3: the user id is the identity without its last two dash-separated segments. */
export function userIdFromIdentity(identityValue: string): string | undefined {
  const parts = identityValue.split('-');
  if (parts.length < 3) return undefined;
  const userId = parts.slice(0, -2).join('-');
  return userId === '' ? undefined : userId;
}
