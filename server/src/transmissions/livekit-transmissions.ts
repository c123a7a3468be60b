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
import { keepAndAnnounce, type KeepDeps } from './keep-transmissions.js';
import { TransmissionRecorder, type RecordingOutcome } from './transmission-recorder.js';
import type { TransmissionStore } from './transmission-store.js';

/** A recorder leaves a room this long after its last transmission, once nobody is in it. */
const IDLE_LEAVE_MS = 120_000;

/** This instance's listen-only participant in one channel's room. */
interface RoomListener {
  channelId: number;
  /** Not connected to the room any more (the join failed, or LiveKit closed it). */
  readonly gone: boolean;
  subscriber: Promise<LiveKitSubscriber | null>;
  unsubscribe: Promise<() => Promise<void>>;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * Walkie-talkie recording with LiveKit (decision 024): the instance that grants the floor records
 * the transmission, through the same `TransmissionRecorder` as the built-in SFU, from a hidden,
 * listen-only participant of its own in the room (a werift peer that hands on LiveKit's Opus
 * packets as they are). The recording ends when the floor moves on — seen on the bus, so a cut-in
 * granted by another instance ends it too. The participant's identity has no user id in it, so
 * metering and the floor ignore it; it leaves after two idle minutes.
 */
export class LiveKitTransmissions {
  private readonly rooms = new Map<number, RoomListener>();
  /** Unique per instance: several instances may each have a recorder in one room. */
  private readonly identity = `chirp_recorder_${randomBytes(4).toString('hex')}`;
  private readonly recorder: TransmissionRecorder;

  constructor(
    private readonly deps: {
      config: Config;
      bus: Bus;
      store: TransmissionStore;
      channelEvents: ChannelEvents;
      log: FastifyBaseLogger;
      kept?: KeepDeps['kept'];
      sosKept?: KeepDeps['sosKept'];
      /**
       * A member's microphone went on air (published unmuted, or unmuted) in a room this recorder
       * is in: an SOS countdown's arm ends there (decision 054).
       */
      unmuted?: (channelId: number, userId: string) => void;
      /** Creates the channel's room unless it exists: LiveKit creates no room on a join. */
      ensureRoom: (channelId: number) => Promise<void>;
    },
  ) {
    this.recorder = new TransmissionRecorder({
      listeners: async (channelId) => {
        const subscriber = await this.rooms.get(channelId)?.subscriber;
        return (subscriber?.participants() ?? []).flatMap((identity) => {
          const userId = userIdFromIdentity(identity);
          return userId ? [userId] : [];
        });
      },
      keep: (channelId, transmission, heardBy) =>
        keepAndAnnounce(deps, channelId, transmission, heardBy),
      finished: (outcome) => this.finished(outcome),
      failed: (error, channelId) =>
        deps.log.error({ err: error, channelId }, 'transmission not kept'),
    });
  }

  /**
   * A member is about to enter the channel's walkie-talkie room (this instance minted their token):
   * the recorder joins now, ahead of any press, so the first words of the first transmission are
   * kept, and stays while anyone is in the room.
   */
  entering(channelId: number): void {
    const room = this.present(channelId);
    if (this.recorder.speakerOf(channelId) === null) this.leaveWhenIdle(room);
  }

  /**
   * This instance granted the floor in a walkie-talkie channel: record the holder from now on,
   * until the grant's end at the latest.
   */
  granted(channelId: number, grant: FloorGrant): void {
    const room = this.present(channelId);
    clearTimeout(room.idleTimer);
    this.recorder.holderChanged(channelId, grant.holderId, grant.expiresAt);
  }

  /** This instance's listener in the channel's room, joining (afresh if it is gone) unless there. */
  private present(channelId: number): RoomListener {
    const room = this.rooms.get(channelId);
    if (room && !room.gone) return room;
    if (room)
      // The last join failed, or LiveKit closed the room meanwhile: join afresh.
      this.leave(room).catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'LiveKit recorder did not leave cleanly'),
      );
    return this.open(channelId);
  }

  /** Leaves the room after two idle minutes, unless someone is still in it then. */
  private leaveWhenIdle(room: RoomListener): void {
    clearTimeout(room.idleTimer);
    room.idleTimer = setTimeout(() => {
      void room.subscriber.then((subscriber) => {
        if (this.rooms.get(room.channelId) !== room) return;
        const occupied = (subscriber?.participants() ?? []).some(
          (identity) => userIdFromIdentity(identity) !== undefined,
        );
        if (occupied && !room.gone) this.leaveWhenIdle(room);
        else
          this.leave(room).catch((error: unknown) =>
            this.deps.log.warn({ err: error }, 'LiveKit recorder did not leave cleanly'),
          );
      });
    }, IDLE_LEAVE_MS);
    room.idleTimer.unref();
  }

  async close(): Promise<void> {
    this.recorder.close();
    for (const room of [...this.rooms.values()]) await this.leave(room);
  }

  private open(channelId: number): RoomListener {
    let connected: LiveKitSubscriber | null | undefined;
    const room: RoomListener = {
      channelId,
      get gone() {
        return connected === null || (connected?.isClosed ?? false);
      },
      idleTimer: undefined,
      subscriber: this.join(channelId).then(
        (subscriber) => (connected = subscriber),
        (error: unknown) => {
          this.deps.log.error({ err: error, channelId }, 'LiveKit recorder could not join');
          return (connected = null);
        },
      ),
      unsubscribe: this.deps.bus.subscribe(channelTopic(channelId), (message) => {
        const state = floorStateSchema.safeParse(message);
        if (state.success) this.recorder.floorMovedOn(channelId, state.data.holder?.id ?? null);
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
        const userId = userIdFromIdentity(identity);
        if (userId)
          this.recorder.packet(channelId, userId, rtp.header.ssrc, rtp.header.timestamp, rtp.payload);
      },
      (error) => this.deps.log.warn({ err: error, channelId }, 'LiveKit recorder signalling'),
      (identity) => {
        const userId = userIdFromIdentity(identity);
        if (userId) this.deps.unmuted?.(channelId, userId);
      },
    );
  }

  private finished({ channelId, recordedMs, transmission }: RecordingOutcome): void {
    const room = this.rooms.get(channelId);
    if (room) this.leaveWhenIdle(room);
    // Diagnostics: under load (CI) a LiveKit recording sometimes got too little audio to keep.
    if (!transmission)
      this.deps.log.warn(
        { channelId, recordedMs, gone: room?.gone },
        'LiveKit transmission too short to keep',
      );
  }

  private async leave(room: RoomListener): Promise<void> {
    clearTimeout(room.idleTimer);
    if (this.rooms.get(room.channelId) === room) this.rooms.delete(room.channelId);
    await (await room.unsubscribe)();
    await (await room.subscriber)?.close();
  }
}
