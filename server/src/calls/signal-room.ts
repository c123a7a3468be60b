import { z } from 'zod';
import type { SignalClientMessage, SignalServerMessage } from '../../../protocol/calls.js';
import type { Bus } from '../realtime/bus.js';
import { callRoomTopic } from './call-topics.js';

/** What travels on a room's bus topic between instances; never sent to browsers as is. */
const envelopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('room_closed') }),
  /** A socket joined: others answer `here`, and their browsers learn of a peer. */
  z.object({ kind: z.literal('hello'), from: z.string(), userId: z.string() }),
  z.object({ kind: z.literal('here'), from: z.string(), to: z.string(), userId: z.string() }),
  z.object({
    kind: z.literal('signal'),
    from: z.string(),
    userId: z.string(),
    message: z.record(z.string(), z.unknown()),
  }),
]);

export interface SignalSink {
  send(message: SignalServerMessage): void;
  close(code: number, reason: string): void;
}

/**
 * One `/ws/webrtc` socket in one call room. Whoever joins second is announced to the first as
 * `peer_joined`, and the first to the second, so the caller offers whichever order they arrive in.
 * Messages are relayed between the two users only, never back to the sender's own devices.
 */
export class SignalRoomMember {
  private room: string | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly bus: Bus,
    private readonly socketId: string,
    private readonly userId: string,
    private readonly sink: SignalSink,
  ) {}

  async join(roomName: string): Promise<void> {
    if (this.room === roomName) return;
    await this.leave();
    this.room = roomName;
    this.unsubscribe = await this.bus.subscribe(callRoomTopic(roomName), (data) =>
      this.receive(roomName, data),
    );
    await this.bus.publish(callRoomTopic(roomName), {
      kind: 'hello',
      from: this.socketId,
      userId: this.userId,
    });
  }

  async relay(message: Exclude<SignalClientMessage, { type: 'join_room' }>): Promise<void> {
    if (!this.room || message.roomName !== this.room) return;
    await this.bus.publish(callRoomTopic(this.room), {
      kind: 'signal',
      from: this.socketId,
      userId: this.userId,
      message: { ...message, userId: this.userId },
    });
  }

  async leave(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    this.room = null;
    if (unsubscribe) await unsubscribe();
  }

  private receive(roomName: string, data: unknown): void {
    const parsed = envelopeSchema.safeParse(data);
    if (!parsed.success || this.room !== roomName) return;
    const envelope = parsed.data;
    if (envelope.kind === 'room_closed') {
      this.sink.close(1000, 'Call ended');
      return;
    }
    if (envelope.userId === this.userId) return;
    if (envelope.kind === 'hello') {
      this.sink.send({ type: 'peer_joined', roomName, userId: envelope.userId });
      this.bus
        .publish(callRoomTopic(roomName), {
          kind: 'here',
          from: this.socketId,
          to: envelope.from,
          userId: this.userId,
        })
        .catch(() => this.sink.close(1011, 'Signalling failed'));
      return;
    }
    if (envelope.kind === 'here') {
      if (envelope.to === this.socketId)
        this.sink.send({ type: 'peer_joined', roomName, userId: envelope.userId });
      return;
    }
    this.sink.send(envelope.message as SignalServerMessage);
  }
}
