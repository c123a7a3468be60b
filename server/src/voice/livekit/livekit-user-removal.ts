import { RoomServiceClient, TwirpError } from 'livekit-server-sdk';
import { userIdFromIdentity } from '../../../../protocol/voice-signalling.js';
import type { Config } from '../../config/config.js';
import { channelIdOfLivekitRoom, livekitHttpUrl } from './livekit-rooms.js';

/** RoomService calls give up after this long (as the provider's do). */
const ROOM_SERVICE_TIMEOUT_SECONDS = 5;

const isNotFound = (error: unknown) =>
  error instanceof TwirpError && (error.status === 404 || error.code === 'not_found');

/**
 * Removes the participants of a user from every room of this deployment, except those `keep` says
 * still belong to a live sign-in; resolves with how many were removed.
 */
export type LivekitUserRemoval = (
  userId: string,
  keep?: (identity: string) => Promise<boolean>,
) => Promise<number>;

/**
 * A user whose sign-in ended leaves LiveKit: every participant whose identity
 * (`<userId>-<ms>-<random>`) names them, in every room under the deployment's prefix (rooms of
 * other deployments on the same LiveKit are never touched). Undefined when LiveKit does not carry
 * the audio. A room or participant gone meanwhile is not an error; anything else rejects.
 */
export function livekitUserRemoval(
  config: Config,
  service?: RoomServiceClient,
): LivekitUserRemoval | undefined {
  const { provider, livekit } = config.voice;
  if (provider !== 'livekit' || !livekit.url || !livekit.apiKey || !livekit.apiSecret) return undefined;
  const rooms =
    service ??
    new RoomServiceClient(livekitHttpUrl(livekit.url), livekit.apiKey, livekit.apiSecret, {
      requestTimeout: ROOM_SERVICE_TIMEOUT_SECONDS,
    });
  return async (userId, keep) => {
    const ours = (await rooms.listRooms()).filter(
      (room) => channelIdOfLivekitRoom(livekit.roomPrefix, room.name) !== undefined,
    );
    let removed = 0;
    for (const room of ours) {
      const participants = await rooms.listParticipants(room.name).catch((error: unknown) => {
        if (isNotFound(error)) return [];
        throw error;
      });
      for (const { identity } of participants) {
        if (userIdFromIdentity(identity) !== userId) continue;
        if (keep && (await keep(identity))) continue;
        try {
          await rooms.removeParticipant(room.name, identity);
          removed++;
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
    }
    return removed;
  };
}
