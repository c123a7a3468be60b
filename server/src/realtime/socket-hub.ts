import type { Bus } from './bus.js';
import { userTopic } from './bus.js';
import type { ClientSocket } from './client-socket.js';
import { SharedFrame } from './shared-frame.js';

/**
 * Runs on this instance once per bus message, with the local sockets it is about to reach, before
 * it reaches them (e.g. to drop a removed member from the channel).
 */
export type DeliveryHook = (message: unknown, sockets: readonly ClientSocket[]) => void;

/**
 * The sockets held by this instance and the bus topics they listen to. A topic is subscribed on the
 * bus while at least one local socket needs it.
 */
export class SocketHub {
  private readonly byUser = new Map<string, Set<ClientSocket>>();
  private readonly byTopic = new Map<string, { sockets: Set<ClientSocket>; unsubscribe: Promise<() => Promise<void>> }>();
  private readonly topicsOf = new Map<ClientSocket, Set<string>>();
  private deliveryHook: DeliveryHook = () => undefined;

  constructor(private readonly bus: Bus) {}

  onDeliver(hook: DeliveryHook): void {
    this.deliveryHook = hook;
  }

  /** Adds a socket; returns true when it is its user's first socket on this instance. */
  async add(socket: ClientSocket): Promise<boolean> {
    let sockets = this.byUser.get(socket.userId);
    const first = !sockets;
    if (!sockets) this.byUser.set(socket.userId, (sockets = new Set()));
    sockets.add(socket);
    await this.join(socket, userTopic(socket.userId));
    return first;
  }

  /** Removes a socket; returns true when its user has no socket left on this instance. */
  async remove(socket: ClientSocket): Promise<boolean> {
    for (const topic of [...(this.topicsOf.get(socket) ?? [])]) await this.leave(socket, topic);
    this.topicsOf.delete(socket);
    const sockets = this.byUser.get(socket.userId);
    sockets?.delete(socket);
    if (sockets && sockets.size === 0) {
      this.byUser.delete(socket.userId);
      return true;
    }
    return false;
  }

  /** Users with at least one socket on this instance. */
  userIds(): string[] {
    return [...this.byUser.keys()];
  }

  hasUser(userId: string): boolean {
    return this.byUser.has(userId);
  }

  get socketCount(): number {
    return this.topicsOf.size;
  }

  /** Closes every socket of the user on this instance (e.g. the account was deleted). */
  closeUser(userId: string, code: number, reason: string): void {
    for (const socket of [...(this.byUser.get(userId) ?? [])]) socket.close(code, reason);
  }

  /** Local sockets that listen to the topic. */
  socketsOn(topic: string): number {
    return this.byTopic.get(topic)?.sockets.size ?? 0;
  }

  /** Distinct users with at least one `/ws` socket on this instance. */
  get userCount(): number {
    return this.byUser.size;
  }

  async join(socket: ClientSocket, topic: string): Promise<void> {
    let topics = this.topicsOf.get(socket);
    if (!topics) this.topicsOf.set(socket, (topics = new Set()));
    if (topics.has(topic)) return;
    topics.add(topic);
    const entry = this.byTopic.get(topic);
    if (entry) {
      entry.sockets.add(socket);
      await entry.unsubscribe;
      return;
    }
    const sockets = new Set([socket]);
    const unsubscribe = this.bus.subscribe(topic, (message) => {
      const targets = [...sockets];
      this.deliveryHook(message, targets);
      // Serialised once, however many sockets the topic reaches here.
      const frame = new SharedFrame(message as object);
      for (const target of targets) target.sendShared(frame);
    });
    this.byTopic.set(topic, { sockets, unsubscribe });
    await unsubscribe;
  }

  async leave(socket: ClientSocket, topic: string): Promise<void> {
    this.topicsOf.get(socket)?.delete(topic);
    const entry = this.byTopic.get(topic);
    if (!entry) return;
    entry.sockets.delete(socket);
    if (entry.sockets.size === 0) {
      this.byTopic.delete(topic);
      await (await entry.unsubscribe)();
    }
  }
}
