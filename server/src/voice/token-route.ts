import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { FREE_TIER_LIMIT_MESSAGE } from '../../../protocol/usage.js';
import { displayName } from '../../../protocol/user.js';
import { voiceTokenRequestSchema, type VoiceTokenResponse } from '../../../protocol/voice.js';
import { requireChannelMember } from '../access/channel-guards.js';
import { currentSession } from '../auth/require-user.js';
import { HttpError, forbidden, tooManyRequests } from '../http/errors.js';
import { withinUsageLimit } from '../usage/usage-limit.js';
import type { VoiceProvider } from './voice-provider.js';
import { createVoiceToken } from './voice-token.js';

/**
 * `POST /api/livekit-token` (DESIGN §3 "Voice tokens"): for the signed-in user only, members only,
 * refused over the allowance; the publish right is withheld while the member is admin-muted.
 */
export function registerVoiceTokenRoute(app: FastifyInstance, voice: VoiceProvider): void {
  app.post(API_PATHS.voiceToken, async (request): Promise<VoiceTokenResponse> => {
    try {
      return await issueToken(request.body, request);
    } catch (error) {
      // Refusals name the provider too, so "Failed to get {provider} token" names the right one.
      if (error instanceof HttpError)
        throw new HttpError(error.statusCode, error.message, { ...error.body, provider: voice.name });
      throw error;
    }
  });

  const issueToken = async (input: unknown, request: FastifyRequest): Promise<VoiceTokenResponse> => {
    const body = voiceTokenRequestSchema.parse(input);
    const { user, membership, channel } = await requireChannelMember(request, body.channelId);
    if (body.userId !== user.id) throw forbidden('Tokens are issued only for yourself');
    if (!voice.configured) return { configured: false, provider: voice.name };
    if (!(await withinUsageLimit(app.ctx, user.id))) throw tooManyRequests(FREE_TIER_LIMIT_MESSAGE);
    const { token } = await createVoiceToken({
      apiKey: voice.apiKey,
      apiSecret: voice.apiSecret,
      channelId: body.channelId,
      roomName: voice.roomName(body.channelId),
      userId: user.id,
      userName: displayName(user),
      // LiveKit's publish right also follows a walkie-talkie channel's floor (issue 17); the
      // built-in SFU enforces the floor itself, per packet.
      adminMuted:
        (membership?.isMuted ?? false) ||
        (voice.name === 'LiveKit' &&
          channel.talkMode === 'walkie' &&
          (await app.ctx.floor.currentHolderId(body.channelId)) !== user.id),
      ...(voice.name === 'embedded' ? { sessionId: (await currentSession(request))?.sessionId } : {}),
    });
    return { configured: true, provider: voice.name, url: voice.url(), token };
  };
}
