import type { FastifyBaseLogger } from 'fastify';
import {
  DECLINE_REASONS,
  type AcceptCall,
  type CallServerMessage,
  type DeclineCall,
  type EndCall,
  type IncomingCall,
  type InitiateCall,
} from '../../../protocol/calls.js';
import { displayName, type User } from '../../../protocol/user.js';
import { hasBlocked } from '../blocking/block-store.js';
import type { Database } from '../db/database.js';
import { userTopic, type Bus } from '../realtime/bus.js';
import type { ClientSocket } from '../realtime/client-socket.js';
import type { PresenceReader } from '../memberships/member-presence.js';
import { findUserById } from '../users/user-directory.js';
import { callRoomTopic, ROOM_CLOSED } from './call-topics.js';
import type { LiveCallMarks } from './live-call-marks.js';
import {
  findCall,
  GIVEN_UP,
  liveCallsOf,
  startCall,
  transition,
  type CallRow,
} from './call-store.js';

export interface CallTimings {
  ringTimeoutMs: number;
  disconnectGraceMs: number;
}

/** A call as its push notifications see it. */
export interface PushedCall {
  id: string;
  callerId: string;
  receiverId: string;
}

/** What the call service tells of a call its receiver may not see (push notifications); never waits. */
export interface CallPushes {
  /** It rings: the receiver's devices ring too. */
  ringing(call: PushedCall): void;
  /** It rang and nobody answered (timed out, or the caller gave up). */
  missed(call: PushedCall): void;
}

export interface CallServiceDeps {
  db: Database;
  bus: Bus;
  presence: PresenceReader;
  /** Who may be in a live call: raised before a call is recorded, lowered after it ended. */
  marks: LiveCallMarks;
  log: FastifyBaseLogger;
  timings: CallTimings;
  /** Push notifications of a ringing and of a missed call, to the receiver's devices. */
  pushes?: CallPushes | undefined;
}

/**
 * The server-owned call lifecycle (DESIGN §3 "Calls"). The database row is the authority: every
 * change is a guarded status transition, so duplicate timers or racing instances are harmless.
 * Parties hear of changes through their user topics on the bus, on whichever instance they are.
 */
export class CallService {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  /** Mutable so tests can shorten them on a running server. */
  readonly timings: CallTimings;

  constructor(private readonly deps: CallServiceDeps) {
    this.timings = { ...deps.timings };
  }

  async initiate(socket: ClientSocket, message: InitiateCall): Promise<void> {
    const { db } = this.deps;
    const { callId, receiverId, roomName } = message;
    const callerId = socket.userId;
    const refuse = (reason: string) =>
      this.send(callerId, { type: 'call_declined', callId, reason });
    if (message.callerId !== undefined && message.callerId !== callerId)
      return refuse(DECLINE_REASONS.invalid);
    if (receiverId === callerId) return refuse(DECLINE_REASONS.self);
    const [caller, receiver] = await Promise.all([
      findUserById(db, callerId),
      findUserById(db, receiverId),
    ]);
    if (!caller || !receiver) return refuse(DECLINE_REASONS.unavailable);
    if (await hasBlocked(db, receiverId, callerId)) return refuse(DECLINE_REASONS.unavailable);
    // Raised before the row exists: a socket that finds no mark opened before the call rang, so
    // it listens already when the ring is published.
    const parties = [callerId, receiverId];
    await this.deps.marks.raise(parties);
    let outcome: Awaited<ReturnType<typeof startCall>> | undefined;
    try {
      outcome = await startCall(db, { id: callId, roomName, callerId, receiverId });
    } finally {
      if (outcome !== 'created') await this.deps.marks.lower(parties);
    }
    if (outcome === 'busy') return refuse(DECLINE_REASONS.busy);
    if (outcome === 'taken') return refuse(DECLINE_REASONS.invalid);

    // Started first (it never waits): a device that got the ring on its socket knows its push was decided.
    this.deps.pushes?.ringing({ id: callId, callerId, receiverId });
    await this.send(receiverId, incomingCall({ id: callId, roomName }, caller));
    this.later(this.timings.ringTimeoutMs, () => this.ringTimedOut(callId));
  }

  async accept(socket: ClientSocket, message: AcceptCall): Promise<void> {
    const call = await findCall(this.deps.db, message.callId);
    if (!call || call.receiverId !== socket.userId) return;
    const answered = await transition(this.deps.db, call.id, ['ringing'], 'active');
    if (!answered) return;
    await this.send(call.callerId, {
      type: 'call_accepted',
      callId: call.id,
      roomName: call.roomName,
    });
    await this.send(call.receiverId, {
      type: 'call_ended',
      callId: call.id,
      reason: 'answered_elsewhere',
      ...(message.deviceId ? { deviceId: message.deviceId } : {}),
    });
  }

  async decline(socket: ClientSocket, message: DeclineCall): Promise<void> {
    const call = await findCall(this.deps.db, message.callId);
    if (!call || call.receiverId !== socket.userId) return;
    if (!(await transition(this.deps.db, call.id, ['ringing'], 'declined'))) return;
    await this.ended(call);
    await this.send(call.callerId, {
      type: 'call_declined',
      callId: call.id,
      reason: DECLINE_REASONS.declined,
    });
    await this.send(call.receiverId, {
      type: 'call_ended',
      callId: call.id,
      reason: 'declined_elsewhere',
    });
    await this.closeRoom(call);
  }

  async end(socket: ClientSocket, message: EndCall): Promise<void> {
    const call = await findCall(this.deps.db, message.callId);
    if (!call || (call.callerId !== socket.userId && call.receiverId !== socket.userId)) return;
    await this.finish(call, 'hangup', socket.userId);
  }

  /**
   * A device that connects while a call rings for its user rings too: someone who opens Chirp from
   * the call's notification gets Accept/Decline (only the new socket is told; the others rang already).
   */
  async socketOpened(socket: ClientSocket): Promise<void> {
    if (!(await this.deps.marks.has(socket.userId))) return;
    for (const call of await liveCallsOf(this.deps.db, socket.userId)) {
      if (call.status !== 'ringing' || call.receiverId !== socket.userId) continue;
      const caller = await findUserById(this.deps.db, call.callerId);
      if (caller) socket.send(incomingCall(call, caller));
    }
  }

  /** After the user's last socket anywhere closed: their calls end unless they are back in time. */
  async socketClosed(socket: ClientSocket): Promise<void> {
    if (await this.isOnline(socket.userId)) return;
    if (!(await this.deps.marks.has(socket.userId))) return;
    if ((await liveCallsOf(this.deps.db, socket.userId)).length === 0) return;
    this.later(this.timings.disconnectGraceMs, async () => {
      if (await this.isOnline(socket.userId)) return;
      for (const call of await liveCallsOf(this.deps.db, socket.userId))
        await this.finish(call, 'disconnected');
    });
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async finish(
    call: CallRow,
    reason: 'hangup' | 'disconnected',
    by?: string,
  ): Promise<void> {
    // Ended while it still rang and not by the receiver (the caller gave up, or a party went away):
    // the receiver missed it, in their history and on their devices, as if it had rung out.
    if (by !== call.receiverId) {
      const endReason = by === call.callerId ? GIVEN_UP : reason;
      const missed = await transition(this.deps.db, call.id, ['ringing'], 'missed', endReason);
      if (missed)
        return this.rangUnanswered(missed, { type: 'call_ended', callId: call.id, reason });
    }
    const ended =
      (await transition(this.deps.db, call.id, ['ringing'], 'ended', reason)) ??
      (await transition(this.deps.db, call.id, ['active'], 'ended', reason));
    if (!ended) return;
    await this.ended(ended);
    const message: CallServerMessage = { type: 'call_ended', callId: call.id, reason };
    await this.send(call.callerId, message);
    await this.send(call.receiverId, message);
    await this.closeRoom(call);
  }

  private async ringTimedOut(callId: string): Promise<void> {
    const missed = await transition(this.deps.db, callId, ['ringing'], 'missed');
    if (missed) await this.rangUnanswered(missed, { type: 'call_missed', callId });
  }

  /** Nobody answered: the receiver's devices stop ringing and show "Missed call" (and get its push). */
  private async rangUnanswered(missed: CallRow, toCaller: CallServerMessage): Promise<void> {
    await this.ended(missed);
    this.deps.pushes?.missed(missed);
    await this.send(missed.callerId, toCaller);
    await this.send(missed.receiverId, { type: 'call_missed', callId: missed.id });
    await this.closeRoom(missed);
  }

  /** The call left ringing and active for good (only the transition's winner gets here): unmarked. */
  private ended(call: CallRow): Promise<void> {
    return this.deps.marks.lower([call.callerId, call.receiverId]);
  }

  private async isOnline(userId: string): Promise<boolean> {
    const presence = await this.deps.presence.presenceIn(0, [userId]);
    return presence.get(userId)?.isOnline ?? false;
  }

  private send(userId: string, message: CallServerMessage): Promise<void> {
    return this.deps.bus.publish(userTopic(userId), message);
  }

  private closeRoom(call: CallRow): Promise<void> {
    return this.deps.bus.publish(callRoomTopic(call.roomName), ROOM_CLOSED);
  }

  private later(ms: number, task: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task().catch((error: unknown) => this.deps.log.error({ err: error }, 'call timer failed'));
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}

/** The ring the receiver's devices get (spec §3 "Call": the contact is the caller). */
function incomingCall(call: { id: string; roomName: string }, caller: User): IncomingCall {
  const callerName = displayName(caller);
  return {
    type: 'incoming_call',
    callId: call.id,
    roomName: call.roomName,
    callerId: caller.id,
    callerName,
    callerProfileImageUrl: caller.profileImageUrl,
    contactId: caller.id,
    contactName: callerName,
    contactProfileImageUrl: caller.profileImageUrl,
    isInitiator: false,
  };
}
