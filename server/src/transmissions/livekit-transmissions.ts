import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AccessToken } from 'livekit-server-sdk';
import { floorStateSchema } from '../../../protocol/floor.js';
import { userIdFromIdentity } from '../../../protocol/voice-signalling.js';
import type { Config } from '../config/config.js';
import { channelTopic, type Bus } from '../realtime/bus.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import { LiveKitSubscriber } from '../voice/livekit/livekit-subscriber.js';
import { livekitRoomName } from '../voice/livekit/livekit-rooms.js';
import type { FloorGrant } from '../floor/floor-store.js';
import { keepAndAnnounce } from './keep-transmissions.js';
import { TransmissionRecording } from './transmission-recording.js';
import type { TransmissionStore } from './transmission-store.js';

/** A recorder leaves a room this long after its last transmission. */
const IDLE_LEAVE_MS = 120_000;
/**
 * A recording still open this long after its hold's end missed that end (the channel was deleted
 * under it, a bus message was lost) and is finished; it keeps nothing after the hold's end anyway.
 */
const RECORDING_END_GRACE_MS = 5_000;

interface RoomRecorder {
  channelId: number;
  /** Not connected to the room any more (the join failed, or LiveKit closed it). */
  readonly gone: boolean;
  subscriber: Promise<LiveKitSubscriber | null>;
  recording: TransmissionRecording | null;
  unsubscribe: Promise<() => Promise<void>>;
  idleTimer: NodeJS.Timeout | undefined;
  limitTimer: NodeJS.Timeout | undefined;
}

/**
 * Walkie-talkie recording with LiveKit (decision 024): the instance that grants the floor records
 * the transmission with a hidden, listen-only participant of its own in the room (a werift peer
 * that keeps LiveKit's Opus packets as they are). The recording ends when the floor moves on —
 * seen on the bus, so a cut-in granted by another instance ends it too — and is kept like the
 * built-in SFU's. The participant's identity has no user id in it, so metering and the floor
 * ignore it; it leaves after two idle minutes.
 */
export class LiveKitTransmissions {
  private readonly rooms = new Map<number, RoomRecorder>();
  /** Unique per instance: several instances may each have a recorder in one room. */
  private readonly identity = `chirp_recorder_${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly deps: {
      config: Config;
      bus: Bus;
      store: TransmissionStore;
      channelEvents: ChannelEvents;
      log: FastifyBaseLogger;
      /** Creates the channel's room unless it exists: LiveKit creates no room on a join. */
      ensureRoom: (channelId: number) => Promise<void>;
    },
  ) {}

  /**
   * This instance granted the floor in a walkie-talkie channel: record the holder from now on,
   * until the grant's end at the latest.
   */
  granted(channelId: number, grant: FloorGrant): void {
    const { holderId } = grant;
    let room = this.rooms.get(channelId);
    if (room?.gone) {
      // The last join failed, or LiveKit closed the room meanwhile: join afresh.
      this.leave(room).catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'LiveKit recorder did not leave cleanly'),
      );
      room = undefined;
    }
    room ??= this.open(channelId);
    if (room.recording?.speakerId === holderId) return;
    this.finish(room);
    clearTimeout(room.idleTimer);
    const maxMs = grant.expiresAt - Date.now();
    const recording = new TransmissionRecording(holderId, { maxMs });
    room.recording = recording;
    const recorder = room;
    clearTimeout(room.limitTimer);
    room.limitTimer = setTimeout(
      () => {
        if (recorder.recording === recording) this.finish(recorder);
      },
      Math.max(0, maxMs) + RECORDING_END_GRACE_MS,
    );
    room.limitTimer.unref();
  }

  async close(): Promise<void> {
    for (const room of [...this.rooms.values()]) await this.leave(room);
  }

  private open(channelId: number): RoomRecorder {
    let connected: LiveKitSubscriber | null | undefined;
    const room: RoomRecorder = {
      channelId,
      get gone() {
        return connected === null || (connected?.isClosed ?? false);
      },
      recording: null,
      idleTimer: undefined,
      limitTimer: undefined,
      subscriber: this.join(channelId).then(
        (subscriber) => (connected = subscriber),
        (error: unknown) => {
          this.deps.log.error({ err: error, channelId }, 'LiveKit recorder could not join');
          return (connected = null);
        },
      ),
      unsubscribe: this.deps.bus.subscribe(channelTopic(channelId), (message) => {
        const state = floorStateSchema.safeParse(message);
        if (!state.success || !room.recording) return;
        if ((state.data.holder?.id ?? null) !== room.recording.speakerId) this.finish(room);
      }),
    };
    this.rooms.set(channelId, room);
    return room;
  }

  private async join(channelId: number): Promise<LiveKitSubscriber> {
    const { url, apiKey, apiSecret, roomPrefix } = this.deps.config.voice.livekit;
    const roomName = livekitRoomName(roomPrefix, channelId);
    await this.deps.ensureRoom(channelId);
    const token = new AccessToken(apiKey, apiSecret, { identity: this.identity, ttl: '24h' });
    token.addGrant({
      roomJoin: true,
      room: roomName,
      canSubscribe: true,
      canPublish: false,
      canPublishData: false,
      hidden: true,
    });
    return LiveKitSubscriber.join(
      url!,
      await token.toJwt(),
      (identity, rtp) => {
        const recording = this.rooms.get(channelId)?.recording;
        if (recording && userIdFromIdentity(identity) === recording.speakerId)
          recording.push(rtp.header.ssrc, rtp.header.timestamp, rtp.payload);
      },
      (error) => this.deps.log.warn({ err: error, channelId }, 'LiveKit recorder signalling'),
    );
  }

  private finish(room: RoomRecorder): void {
    const recording = room.recording;
    if (!recording) return;
    room.recording = null;
    clearTimeout(room.limitTimer);
    room.idleTimer = setTimeout(() => {
      this.leave(room).catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'LiveKit recorder did not leave cleanly'),
      );
    }, IDLE_LEAVE_MS);
    room.idleTimer.unref();
    const transmission = recording.finish();
    if (!transmission) {
      // Diagnostics: under load (CI) a LiveKit recording sometimes got too little audio to keep.
      this.deps.log.warn(
        { channelId: room.channelId, recordedMs: recording.durationMs, gone: room.gone },
        'LiveKit transmission too short to keep',
      );
      return;
    }
    void room.subscriber.then(async (subscriber) => {
      const heardBy = new Set<string>();
      for (const identity of subscriber?.participants() ?? []) {
        const userId = userIdFromIdentity(identity);
        if (userId && userId !== transmission.speakerId) heardBy.add(userId);
      }
      await keepAndAnnounce(this.deps, room.channelId, transmission, [...heardBy]);
    });
  }

  private async leave(room: RoomRecorder): Promise<void> {
    clearTimeout(room.idleTimer);
    clearTimeout(room.limitTimer);
    if (this.rooms.get(room.channelId) === room) this.rooms.delete(room.channelId);
    await (await room.unsubscribe)();
    await (await room.subscriber)?.close();
  }
}
