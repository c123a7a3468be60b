import { z } from 'zod';

/**
 * ICE configuration shared by one-to-one calls (`GET /api/calls/ice-servers`), the built-in SFU
 * (`joined.iceServers`) and the server's `ICE_SERVERS` setting: one shape, one set of bounds.
 */
export const iceServerSchema = z.object({
  urls: z.union([z.string().max(512), z.array(z.string().max(512)).max(16)]),
  username: z.string().max(512).optional(),
  credential: z.string().max(512).optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;
export const iceServerListSchema = z.array(iceServerSchema).max(16);

/** A trickled ICE candidate (`RTCIceCandidateInit`), as both signalling sockets relay it. */
export const iceCandidateInitSchema = z.object({
  candidate: z.string().max(1024),
  sdpMid: z.string().max(64).nullish(),
  sdpMLineIndex: z.number().int().min(0).max(4096).nullish(),
  usernameFragment: z.string().max(256).nullish(),
});
export type IceCandidateInit = z.infer<typeof iceCandidateInitSchema>;
