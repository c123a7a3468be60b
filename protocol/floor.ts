import { z } from 'zod';

/**
 * Walkie-talkie channels: the channel admin sets a channel's talk mode. In an "open"
 * channel everyone in it may talk at once (the spec's behaviour); in a "walkie" channel the server
 * grants the floor to one talker at a time, and only the floor holder's audio is forwarded.
 */
export const TALK_MODES = ['open', 'walkie'] as const;
export const talkModeSchema = z.enum(TALK_MODES);
export type ChannelTalkMode = z.infer<typeof talkModeSchema>;

const channelId = z.number().int().positive().max(2_147_483_647);

/** Client → server on `/ws`: pressed (asks for the floor) and released (gives it back). */
export const floorRequestSchema = z.object({ type: z.literal('floor_request'), channelId });
export const floorReleaseSchema = z.object({ type: z.literal('floor_release'), channelId });
export type FloorRequest = z.infer<typeof floorRequestSchema>;
export type FloorRelease = z.infer<typeof floorReleaseSchema>;

export const floorHolderSchema = z.object({ id: z.string(), name: z.string() });
export type FloorHolder = z.infer<typeof floorHolderSchema>;

/**
 * Server → the channel's viewers: who holds the floor now (null: nobody), and until when (epoch
 * milliseconds) at the latest. Sent on every change and to a socket when it joins the channel.
 */
export const floorStateSchema = z.object({
  type: z.literal('floor_state'),
  channelId,
  holder: floorHolderSchema.nullable(),
  expiresAt: z.number().nullable(),
  /** Why the last holder lost it, when it was taken rather than given back. */
  ended: z.enum(['expired', 'cut_in']).optional(),
  /** The holder's voice is an SOS (decision 050): nobody cuts in, and listeners hear it at full volume. */
  sos: z.boolean().optional(),
});
export type FloorState = z.infer<typeof floorStateSchema>;

/**
 * Server → the one socket that pressed: no floor for you now, and why. `not_in_voice`: only someone
 * connected to the channel's voice may hold its floor; `too_soon`: a new hold by the same person
 * waits a moment after their last one ended.
 */
export const FLOOR_DENIALS = ['busy', 'muted', 'open_channel', 'not_in_voice', 'too_soon'] as const;
export const floorDeniedSchema = z.object({
  type: z.literal('floor_denied'),
  channelId,
  reason: z.enum(FLOOR_DENIALS),
  /** Who is talking, when the floor is busy. */
  holder: floorHolderSchema.nullable(),
});
export type FloorDenied = z.infer<typeof floorDeniedSchema>;
