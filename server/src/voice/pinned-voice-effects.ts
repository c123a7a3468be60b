import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Bus } from '../realtime/bus.js';
import type { VoiceProvider } from './voice-provider.js';

/** Bus topic every instance of a pinned built-in SFU deployment listens on. */
export const VOICE_EFFECTS_TOPIC = 'voice:effects';

const voiceEffectSchema = z.discriminatedUnion('effect', [
  z.object({
    effect: z.literal('mute'),
    channelId: z.number().int(),
    userId: z.string().min(1),
    muted: z.boolean(),
  }),
  z.object({
    effect: z.literal('disconnect'),
    channelId: z.number().int(),
    userId: z.string().min(1),
  }),
  z.object({ effect: z.literal('close'), channelId: z.number().int() }),
  z.object({
    effect: z.literal('block'),
    blockerId: z.string().min(1),
    blockedId: z.string().min(1),
    blocked: z.boolean(),
  }),
  z.object({
    effect: z.literal('floor'),
    channelId: z.number().int(),
    walkie: z.boolean(),
    holderId: z.string().min(1).nullable(),
    previousHolderId: z.string().min(1).nullable(),
    expiresAt: z.number().nullable().optional(),
    sos: z.boolean().optional(),
  }),
]);
type VoiceEffect = z.infer<typeof voiceEffectSchema>;

/**
 * Built-in SFU with several instances and VOICE_PINNED: the rooms live in whichever instance the
 * proxy sends /rtc to, but an admin's mute, removal or deletion (or a walkie-talkie floor change, or a block)
 * may land on any instance. So each
 * effect goes over the bus (Redis) and every instance applies it to its own SFU; the ones without
 * the room have nothing to do. Delivery is best effort, as for every other push.
 */
export async function pinnedVoiceEffects(
  local: VoiceProvider,
  bus: Bus,
  log: FastifyBaseLogger,
): Promise<VoiceProvider> {
  const apply = async (effect: VoiceEffect) => {
    switch (effect.effect) {
      case 'mute':
        return local.setPublisherMuted(effect.channelId, effect.userId, effect.muted);
      case 'disconnect':
        return local.disconnectUser(effect.channelId, effect.userId);
      case 'close':
        return local.closeRoom(effect.channelId);
      case 'floor':
        return local.setFloor(effect.channelId, effect);
      case 'block':
        return local.blockChanged(effect.blockerId, effect.blockedId, effect.blocked);
    }
  };
  await bus.subscribe(VOICE_EFFECTS_TOPIC, (message) => {
    const parsed = voiceEffectSchema.safeParse(message);
    if (!parsed.success) {
      log.warn({ issues: parsed.error.issues }, 'voice effect from the bus dropped');
      return;
    }
    apply(parsed.data).catch((error: unknown) =>
      log.error({ err: error, effect: parsed.data }, 'voice effect failed'),
    );
  });
  const send = (effect: VoiceEffect) => bus.publish(VOICE_EFFECTS_TOPIC, effect);
  return {
    ...local,
    setPublisherMuted: (channelId, userId, muted) =>
      send({ effect: 'mute', channelId, userId, muted }),
    disconnectUser: (channelId, userId) => send({ effect: 'disconnect', channelId, userId }),
    closeRoom: (channelId) => send({ effect: 'close', channelId }),
    blockChanged: (blockerId, blockedId, blocked) =>
      send({ effect: 'block', blockerId, blockedId, blocked }),
    setFloor: (channelId, { walkie, holderId, previousHolderId, expiresAt, sos }) =>
      send({
        effect: 'floor',
        channelId,
        walkie,
        holderId,
        previousHolderId,
        expiresAt: expiresAt ?? null,
        ...(sos ? { sos } : {}),
      }),
  };
}
