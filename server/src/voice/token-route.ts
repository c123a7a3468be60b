import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { displayName } from '../../../protocol/user.js';
import { voiceTokenRequestSchema, type VoiceTokenResponse } from '../../../protocol/voice.js';
import { requireChannelMember } from '../access/channel-guards.js';
import { currentSession } from '../auth/require-user.js';
import { HttpError, forbidden, tooManyRequests, unauthorized } from '../http/errors.js';
import { recordIdentity } from './livekit/livekit-identities.js';
import { mayOpenVoice, mayPublishNow } from './voice-access.js';
import type { VoiceProvider } from './voice-provider.js';
import { createVoiceToken } from './voice-token.js';

/** Tokens one user may mint per minute: a page joins a few channels; nobody needs more. */
export const VOICE_TOKENS_PER_MINUTE = 30;

/**
 * `POST /api/livekit-token` (DESIGN §3 "Voice tokens"): for the signed-in user only, members only,
 * decided by the shared voice-access rule (refused over the allowance with billing on); the publish
 * right follows the admin mute and, in a walkie-talkie channel, the floor. With LiveKit the room is
 * created here (LiveKit creates none on a join) and the identity is recorded with its sign-in
 * session, so LiveKit's join webhook can check the participant again.
 */
export function registerVoiceTokenRoute(app: FastifyInstance, voice: VoiceProvider): void {
  app.post(API_PATHS.voiceToken, async (request): Promise<VoiceTokenResponse> => {
    try {
      return await issueToken(request.body, request);
    } catch (error) {
      // Refusals name the provider too, so "Failed to get {provider} token" names the right one.
      if (error instanceof HttpError)
        throw new HttpError(error.statusCode, error.message, {
          ...error.body,
          provider: voice.name,
        });
      throw error;
    }
  });

  const issueToken = async (
    input: unknown,
    request: FastifyRequest,
  ): Promise<VoiceTokenResponse> => {
    const body = voiceTokenRequestSchema.parse(input);
    const { user } = await requireChannelMember(request, body.channelId);
    if (body.userId !== user.id) throw forbidden('Tokens are issued only for yourself');
    const minted = await app.ctx.counters.counter('voice-token', 60).penalty(user.id);
    if (minted.consumedPoints > VOICE_TOKENS_PER_MINUTE)
      throw tooManyRequests('Too many voice tokens for now. Try again in a minute.');
    if (!voice.configured) return { configured: false, provider: voice.name };
    const session = await currentSession(request);
    if (!session) throw unauthorized();
    const access = await mayOpenVoice(app.ctx.voice.access, {
      userId: user.id,
      channelId: body.channelId,
      sessionId: session.sessionId,
    });
    if (!access.admitted) {
      if (access.reason === 'over_limit') throw tooManyRequests(access.message);
      if (access.reason === 'session_ended') throw unauthorized();
      if (access.reason === 'blocked') throw forbidden(access.message);
      throw forbidden('You are not a member of this channel');
    }
    const livekit = app.ctx.voice.livekit;
    if (livekit) await livekit.ensureRoom(body.channelId);
    const created = await createVoiceToken({
      apiKey: voice.apiKey,
      apiSecret: voice.apiSecret,
      channelId: body.channelId,
      roomName: voice.roomName(body.channelId),
      userId: user.id,
      userName: displayName(user),
      // The built-in SFU enforces the floor itself, per packet; LiveKit's publish right follows it.
      // An admin-muted SOS sender gets a publish slot: the SFU forwards them for the SOS only.
      adminMuted: livekit
        ? !mayPublishNow(user.id, access)
        : access.muted && !(access.floor.sos === true && access.floor.holderId === user.id),
      // LiveKit shows token attributes to everyone in the room: its identity is recorded instead.
      ...(livekit ? {} : { sessionId: session.sessionId }),
    });
    if (livekit)
      await recordIdentity(app.ctx.database.db, {
        identity: created.identity,
        userId: user.id,
        channelId: body.channelId,
        sessionId: session.sessionId,
      });
    return { configured: true, provider: voice.name, url: voice.url(), token: created.token };
  };
}
