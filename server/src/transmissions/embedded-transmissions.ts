import type { FastifyBaseLogger } from 'fastify';
import { channelIdOfRoom, voiceRoomName } from '../../../protocol/voice-signalling.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import type { EmbeddedSfu } from '../voice/sfu/embedded-sfu.js';
import { keepAndAnnounce, type KeepDeps } from './keep-transmissions.js';
import type { TransmissionStore } from './transmission-store.js';
import { TransmissionRecorder } from './transmission-recorder.js';

/**
 * Walkie-talkie recording with the built-in SFU: the floor as the SFU applies it (from the floor
 * service, over the bus when pinned, or re-announced by a join) starts and ends each transmission,
 * on the instance that holds the room; the packets are the ones its tap shows forwarded, so
 * nothing a client sends without the floor is recorded. Returns the function that stops it.
 */
export function recordEmbeddedTransmissions(
  sfu: EmbeddedSfu,
  deps: {
    store: Pick<TransmissionStore, 'keepTransmission'>;
    channelEvents: ChannelEvents;
    log: FastifyBaseLogger;
    kept?: KeepDeps['kept'];
    sosKept?: KeepDeps['sosKept'];
  },
): () => void {
  const recorder = new TransmissionRecorder({
    listeners: (channelId) =>
      sfu.participants(voiceRoomName(channelId)).map((participant) => participant.userId),
    keep: (channelId, transmission, heardBy) =>
      keepAndAnnounce(deps, channelId, transmission, heardBy),
    failed: (error, channelId) =>
      deps.log.error({ err: error, channelId }, 'transmission not kept'),
  });
  // The tap runs per packet: a room's channel is parsed once.
  const channels = new Map<string, number | undefined>();
  const channelOf = (roomName: string) => {
    if (!channels.has(roomName)) channels.set(roomName, channelIdOfRoom(roomName));
    return channels.get(roomName);
  };
  const stops = [
    sfu.on('floorChanged', ({ roomName, holderId, expiresAt }) => {
      const channelId = channelOf(roomName);
      if (channelId !== undefined) recorder.holderChanged(channelId, holderId, expiresAt);
    }),
    sfu.on('packetForwarded', ({ roomName, userId, ssrc, timestamp, payload }) => {
      const channelId = channelOf(roomName);
      if (channelId !== undefined) recorder.packet(channelId, userId, ssrc, timestamp, payload);
    }),
    sfu.on('roomClosed', ({ roomName }) => {
      const channelId = channelOf(roomName);
      channels.delete(roomName);
      if (channelId !== undefined) recorder.discard(channelId);
    }),
  ];
  return () => {
    for (const stop of stops) stop();
    recorder.close();
  };
}
