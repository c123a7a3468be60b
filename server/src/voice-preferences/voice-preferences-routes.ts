import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  memberVolumeParamsSchema,
  setMemberVolumeBodySchema,
  updateVoicePreferencesBodySchema,
  type MemberVolume,
  type VoicePreferences,
} from '../../../protocol/voice-preferences.js';
import { requireUser } from '../auth/require-user.js';
import { badRequest, notFound } from '../http/errors.js';
import { findUserById } from '../users/user-directory.js';
import {
  isForeignKeyViolation,
  readVoicePreferences,
  writeMemberVolume,
  writeRogerBeep,
} from './voice-preferences-store.js';

/**
 * The signed-in user's own voice preferences. Every route acts on the session's user
 * only: there is no way to name another listener, so nobody reads or changes someone else's.
 */
export function registerVoicePreferencesRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.voicePreferences, async (request): Promise<VoicePreferences> => {
    const user = await requireUser(request);
    return readVoicePreferences(ctx.database.db, user.id);
  });

  app.patch(API_PATHS.voicePreferences, async (request): Promise<VoicePreferences> => {
    const body = updateVoicePreferencesBodySchema.parse(request.body);
    const user = await requireUser(request);
    await writeRogerBeep(ctx.database.db, user.id, body.rogerBeep);
    return readVoicePreferences(ctx.database.db, user.id);
  });

  app.put(API_PATHS.memberVolume, async (request): Promise<MemberVolume> => {
    const { memberId } = memberVolumeParamsSchema.parse(request.params);
    const { volume } = setMemberVolumeBodySchema.parse(request.body);
    const user = await requireUser(request);
    // One's own voice is never played back (spec §6), so there is nothing to set.
    if (memberId === user.id) throw badRequest('You cannot set your own volume');
    if (!(await findUserById(ctx.database.db, memberId))) throw notFound('User not found');
    try {
      await writeMemberVolume(ctx.database.db, user.id, memberId, volume);
    } catch (error) {
      // The member's account was deleted between the check and the write.
      if (isForeignKeyViolation(error)) throw notFound('User not found');
      throw error;
    }
    return { memberId, volume };
  });
}
