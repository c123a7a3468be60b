import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { networkInterfaces } from 'node:os';

/**
 * A user-space network impairment for UDP (these machines' kernels have no netem): a relay on
 * 127.0.0.1 that a browser's ICE traffic is routed through (see `relay-routing.ts`, which rewrites
 * the remote candidates a page learns so that every one of them points at a relay port). Each
 * route forwards to one target address; what it carries, both ways, goes through the conditions of
 * its *link* (a name the caller picks, e.g. "listener"): loss (random or in bursts), delay with
 * jitter, a rate cap with a bounded queue. Links can be moved to new ports, as a phone's network
 * changes: the old routes then drop everything, silently.
 */
export interface LinkConditions {
  /** Share of packets lost, 0..1 (random, or the long-run share in bursts when `meanBurst` is set). */
  loss?: number;
  /** Gilbert–Elliott loss: mean length of a burst of consecutive losses, in packets. */
  meanBurst?: number;
  /** One-way delay added in each direction, ms. */
  delayMs?: number;
  /** Each packet's delay varies uniformly within ± this, ms (packets keep their order). */
  jitterMs?: number;
  /** Rate cap per direction, kbit/s of IP packets (payload + 28 bytes); unlimited when absent. */
  rateKbps?: number;
  /** Most queueing a capped link holds before it drops (tail drop), ms. */
  queueLimitMs?: number;
}

export interface DirectionCounters {
  /** IP bytes (UDP payload + 28) that entered the link in this direction. */
  bytes: number;
  packets: number;
  dropped: number;
}

export interface LinkCounters {
  /** Towards the target (the voice server, or the other browser). */
  up: DirectionCounters;
  /** Back towards the browser that owns the link. */
  down: DirectionCounters;
}

const IP_UDP_OVERHEAD = 28;

/** One direction of one link: its loss state, its queue and its clock. */
class Direction {
  readonly counters: DirectionCounters = { bytes: 0, packets: 0, dropped: 0 };
  private bad = false;
  private busyUntil = 0;
  private lastArrival = 0;
  private readonly queue: { at: number; send: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly conditions: () => LinkConditions,
    private readonly random: () => number,
  ) {}

  carry(size: number, send: () => void): void {
    const c = this.conditions();
    this.counters.bytes += size + IP_UDP_OVERHEAD;
    this.counters.packets++;
    if (this.lost(c)) {
      this.counters.dropped++;
      return;
    }
    const now = performance.now();
    let leaves = now;
    if (c.rateKbps) {
      const start = Math.max(now, this.busyUntil);
      if (start - now > (c.queueLimitMs ?? 300)) {
        this.counters.dropped++;
        return;
      }
      leaves = start + ((size + IP_UDP_OVERHEAD) * 8) / c.rateKbps;
      this.busyUntil = leaves;
    }
    const jitter = c.jitterMs ? (this.random() * 2 - 1) * c.jitterMs : 0;
    const arrives = Math.max(leaves + Math.max(0, (c.delayMs ?? 0) + jitter), this.lastArrival);
    this.lastArrival = arrives;
    if (arrives - now < 0.5 && this.queue.length === 0) {
      send();
      return;
    }
    this.queue.push({ at: arrives, send });
    this.schedule();
  }

  private lost(c: LinkConditions): boolean {
    const loss = c.loss ?? 0;
    if (loss <= 0) return false;
    if (!c.meanBurst || c.meanBurst <= 1) return this.random() < loss;
    // Two states: good (nothing lost) and bad (everything lost). Leaving "bad" has probability
    // 1/meanBurst; entering it is chosen so that the long-run share of bad packets is `loss`.
    const leaveBad = 1 / c.meanBurst;
    const enterBad = (loss * leaveBad) / (1 - loss);
    this.bad = this.bad ? this.random() >= leaveBad : this.random() < enterBad;
    return this.bad;
  }

  private schedule(): void {
    if (this.timer || this.queue.length === 0) return;
    const wait = Math.max(0, this.queue[0]!.at - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = performance.now() + 0.5;
      while (this.queue.length > 0 && this.queue[0]!.at <= now) this.queue.shift()!.send();
      this.schedule();
    }, wait);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }
}

interface Link {
  conditions: LinkConditions;
  up: Direction;
  down: Direction;
  generation: number;
}

interface Route {
  link: string;
  generation: number;
  /** The port the browser sends to. */
  front: Socket;
  /** One socket towards the target per browser address, so replies find their way back. */
  backs: Map<string, Socket>;
  dead: boolean;
}

export interface ImpairmentRelay {
  /**
   * The relay port (on 127.0.0.1) that carries traffic to `address:port` over `link`: the same
   * port for the same target until the link moves.
   */
  route(link: string, address: string, port: number): Promise<number>;
  setConditions(link: string, conditions: LinkConditions): void;
  /** A network change: the link's current routes drop everything from now on; new ones get new ports. */
  move(link: string): void;
  counters(link: string): LinkCounters;
  /** Ports the link's live routes listen on (what the browser's traffic goes to now). */
  ports(link: string): number[];
  close(): Promise<void>;
}

export interface RelayOptions {
  /** Seeded randomness makes a run's losses repeatable; Math.random by default. */
  random?: () => number;
}

/** A small seeded generator (mulberry32), so two paths can be given the same loss pattern. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The machine's first non-loopback IPv4 (127.0.0.1 when it has none): the relay's sockets towards
 * the targets use it, as a browser's host candidate would, and a LiveKit node behind the relay
 * must advertise it (LiveKit does not listen on loopback).
 */
export function outwardAddress(): string {
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? [])
      if (address.family === 'IPv4' && !address.internal) return address.address;
  return '127.0.0.1';
}

export function startImpairmentRelay(options: RelayOptions = {}): ImpairmentRelay {
  const random = options.random ?? Math.random;
  const backAddress = outwardAddress();
  const links = new Map<string, Link>();
  const routes = new Map<string, Promise<Route>>();
  const allRoutes: Route[] = [];

  const linkOf = (name: string): Link => {
    let link = links.get(name);
    if (!link) {
      const created: Link = {
        conditions: {},
        generation: 0,
        up: new Direction(() => created.conditions, random),
        down: new Direction(() => created.conditions, random),
      };
      link = created;
      links.set(name, link);
    }
    return link;
  };

  const bind = (socket: Socket): Promise<number> =>
    new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve(socket.address().port));
    });

  async function openRoute(name: string, address: string, port: number): Promise<Route> {
    const link = linkOf(name);
    const route: Route = {
      link: name,
      generation: link.generation,
      front: createSocket('udp4'),
      backs: new Map(),
      dead: false,
    };
    allRoutes.push(route);
    route.front.on('error', () => undefined);
    route.front.on('message', (message: Buffer, from: RemoteInfo) => {
      if (route.dead) return;
      const key = `${from.address}:${from.port}`;
      let back = route.backs.get(key);
      if (!back) {
        const socket = createSocket('udp4');
        back = socket;
        route.backs.set(key, socket);
        socket.on('error', () => undefined);
        socket.on('message', (reply: Buffer) => {
          if (route.dead) return;
          link.down.carry(reply.length, () => {
            if (!route.dead) route.front.send(reply, from.port, from.address);
          });
        });
        socket.bind(0, backAddress);
      }
      const target = back;
      link.up.carry(message.length, () => {
        if (!route.dead) target.send(message, port, address);
      });
    });
    await bind(route.front);
    return route;
  }

  return {
    async route(name, address, port) {
      const link = linkOf(name);
      const key = `${name}|${link.generation}|${address}:${port}`;
      let route = routes.get(key);
      if (!route) {
        route = openRoute(name, address, port);
        routes.set(key, route);
      }
      return (await route).front.address().port;
    },
    setConditions(name, conditions) {
      linkOf(name).conditions = { ...conditions };
    },
    move(name) {
      const link = linkOf(name);
      for (const route of allRoutes)
        if (route.link === name && route.generation === link.generation) route.dead = true;
      link.up.stop();
      link.down.stop();
      link.generation++;
    },
    counters(name) {
      const link = linkOf(name);
      return { up: { ...link.up.counters }, down: { ...link.down.counters } };
    },
    ports(name) {
      return allRoutes
        .filter((route) => route.link === name && !route.dead)
        .map((route) => route.front.address().port);
    },
    async close() {
      for (const link of links.values()) {
        link.up.stop();
        link.down.stop();
      }
      for (const route of allRoutes) {
        route.dead = true;
        for (const socket of [route.front, ...route.backs.values()])
          await new Promise<void>((resolve) => {
            try {
              socket.close(() => resolve());
            } catch {
              resolve();
            }
          });
      }
    },
  };
}
