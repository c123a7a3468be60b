import { randomBytes } from 'node:crypto';
import { AccessToken, TokenVerifier, TrackSource } from 'livekit-server-sdk';
import { userIdFromIdentity, voiceRoomName } from '../../../protocol/voice-signalling.js';

/**
 * Voice tokens are LiveKit-format JWTs for both providers (DESIGN.md "Voice tokens"), so the client
 * and the token endpoint do not care which one carries the audio. The built-in SFU signs them with
 * this fixed key name and a secret of ours.
 */
export const EMBEDDED_VOICE_API_KEY = 'chirp-embedded';
export const VOICE_TOKEN_TTL_SECONDS = 10 * 60;
const SESSION_ATTRIBUTE = 'chirp.session';

export interface CreateVoiceTokenInput {
  apiSecret: string;
  /** Defaults to the built-in SFU's key; LiveKit deployments pass theirs. */
  apiKey?: string;
  channelId: string | number;
  /** The provider's room for the channel; `channel-<id>` when omitted (the built-in SFU's). */
  roomName?: string;
  userId: string;
  userName: string;
  /** The member may not publish now (admin-muted, or a walkie channel's floor is someone else's). */
  adminMuted: boolean;
  /**
   * The sign-in session the token was issued to (`sessionIdOf`): the built-in SFU drops the voice
   * of a session that ended. Not set for LiveKit, whose rooms show attributes to every participant.
   */
  sessionId?: string;
  /** Seconds, or a zeit/ms span such as '10m'. Tests use a negative span to mint expired tokens. */
  ttl?: number | string;
}

export interface CreatedVoiceToken {
  token: string;
  identity: string;
  roomName: string;
}

/** Spec §3: `<userId>-<epoch ms>-<random>`; the random part has no dashes so the split stays exact. */
export function createVoiceIdentity(userId: string, now = Date.now()): string {
  return `${userId}-${now}-${randomBytes(6).toString('hex')}`;
}

export async function createVoiceToken(input: CreateVoiceTokenInput): Promise<CreatedVoiceToken> {
  const identity = createVoiceIdentity(input.userId);
  const roomName = input.roomName ?? voiceRoomName(input.channelId);
  const accessToken = new AccessToken(input.apiKey ?? EMBEDDED_VOICE_API_KEY, input.apiSecret, {
    identity,
    name: input.userName,
    ttl: input.ttl ?? VOICE_TOKEN_TTL_SECONDS,
    ...(input.sessionId ? { attributes: { [SESSION_ATTRIBUTE]: input.sessionId } } : {}),
  });
  // A microphone and nothing else: no camera or screen share, no data messages, no metadata
  // (livekit-permissions.ts grants the same to connected LiveKit participants).
  accessToken.addGrant({
    roomJoin: true,
    room: roomName,
    canPublish: !input.adminMuted,
    canSubscribe: true,
    canPublishData: false,
    canPublishSources: [TrackSource.MICROPHONE],
    canUpdateOwnMetadata: false,
  });
  return { token: await accessToken.toJwt(), identity, roomName };
}

export interface VerifiedVoiceToken {
  identity: string;
  userId: string;
  name: string;
  roomName: string;
  canPublish: boolean;
  canSubscribe: boolean;
  expiresAt: number;
  /** The sign-in session it was issued to, when the token names one. */
  sessionId: string | undefined;
}

export class VoiceTokenError extends Error {
  override readonly name = 'VoiceTokenError';
}

export type VoiceTokenVerifierFn = (token: string) => Promise<VerifiedVoiceToken>;

/**
 * Checks signature, issuer and expiry (the SDK's verifier), then the claims the SFU relies on:
 * a room-join grant for a channel room, an identity we can recover a user id from, and the
 * publish right. Throws `VoiceTokenError` for anything a client could have forged or let expire.
 */
export function createVoiceTokenVerifier(options: {
  apiSecret: string;
  apiKey?: string;
  /** Seconds of clock skew tolerated on expiry; the SDK default (10 s) when omitted. */
  clockToleranceSeconds?: number;
}): VoiceTokenVerifierFn {
  const verifier = new TokenVerifier(options.apiKey ?? EMBEDDED_VOICE_API_KEY, options.apiSecret);
  return async (token) => {
    let claims: Awaited<ReturnType<TokenVerifier['verify']>>;
    try {
      claims = await verifier.verify(token, options.clockToleranceSeconds);
    } catch (error) {
      throw new VoiceTokenError(`invalid voice token: ${(error as Error).message}`);
    }
    const grant = claims.video;
    const identity = claims.sub;
    if (!grant?.roomJoin || typeof grant.room !== 'string' || !/^channel-.+/.test(grant.room)) {
      throw new VoiceTokenError('voice token has no room-join grant for a channel room');
    }
    if (typeof identity !== 'string' || identity === '')
      throw new VoiceTokenError('voice token has no identity');
    const userId = userIdFromIdentity(identity);
    if (userId === undefined)
      throw new VoiceTokenError('voice token identity is not <userId>-<time>-<random>');
    if (typeof claims.exp !== 'number') throw new VoiceTokenError('voice token has no expiry');
    return {
      identity,
      userId,
      name: typeof claims.name === 'string' ? claims.name : '',
      roomName: grant.room,
      // LiveKit's default for a missing flag is "allowed"; we always write it, but keep its meaning.
      canPublish: grant.canPublish !== false,
      canSubscribe: grant.canSubscribe !== false,
      expiresAt: claims.exp * 1000,
      sessionId: claims.attributes?.[SESSION_ATTRIBUTE],
    };
  };
}
