/**
 * Child process of the SFU benches: hosts werift participants (publishers and subscribers) of the
 * built-in SFU, LiveKit or Janus, so the server's process measures only its own work. Driven over
 * IPC by sfu-cpu.bench.ts and compare/sfu-compare.bench.ts. Clients live in named groups, one per
 * server under test, so several servers can be joined at once and measured in turn.
 */
import { RtpHeader, RtpPacket } from 'werift';
import {
  benchPayload,
  BENCH_PAYLOAD_BYTES,
  DTX_FRAME,
  DTX_INTERVAL_MS,
  nowUs,
  PACKETS_PER_SECOND,
  readBenchPayload,
} from './swarm/bench-packet.js';
import { ignoreRetransmittedHelloVerify } from './swarm/browser-like-dtls.js';
import { DelayHistogram } from './swarm/delay-histogram.js';
import { joinSwarmClient } from './swarm/join-swarm-client.js';
import type { JoinTarget, SwarmClient } from './swarm/swarm-client.js';
import type { SwarmCommand, SwarmReply } from './swarm/swarm-messages.js';

interface Group {
  /** The first one talks when told to; more (idle-load members) only sit in their rooms. */
  publishers: SwarmClient[];
  subscribers: SwarmClient[];
  /** The client in each listener slot (failed joins leave a hole). */
  bySlot: (SwarmClient | undefined)[];
  received: number[];
  firstPacketUs: (number | null)[];
  /** Slots whose join failed; they are reported as failures, not as listeners that lost audio. */
  failed: Set<number>;
  window: { from: number; to: number };
  delays: DelayHistogram;
  nextIndex: number;
  sequenceNumber: number;
  timestamp: number;
  streaming: boolean;
  stream: Promise<void>;
  /** The DTX timers of the publishers' silent microphones ('silence'). */
  silence: NodeJS.Timeout[];
}

ignoreRetransmittedHelloVerify();

const groups = new Map<string, Group>();
const CONNECT_TIMEOUT_MS = 30_000;

function groupFor(name: string): Group {
  let group = groups.get(name);
  if (!group) {
    group = {
      publishers: [],
      subscribers: [],
      bySlot: [],
      received: [],
      firstPacketUs: [],
      failed: new Set(),
      window: { from: 0, to: 0 },
      delays: new DelayHistogram(),
      nextIndex: 0,
      sequenceNumber: 1,
      timestamp: 0,
      streaming: false,
      stream: Promise.resolve(),
      silence: [],
    };
    groups.set(name, group);
  }
  return group;
}

function subscriberSink(group: Group, slot: number): (rtp: RtpPacket) => void {
  group.received[slot] = 0;
  group.firstPacketUs[slot] = null;
  return (rtp) => {
    const now = nowUs();
    const info = readBenchPayload(rtp.payload);
    if (!info) return;
    group.firstPacketUs[slot] ??= now;
    if (info.index < group.window.from || info.index >= group.window.to) return;
    group.received[slot]!++;
    group.delays.add(now - info.sentAtUs);
  };
}

async function join(
  group: Group,
  role: 'publisher' | 'subscriber',
  targets: JoinTarget[],
  concurrency: number,
): Promise<SwarmReply> {
  const failures: string[] = [];
  const feeds: (number | undefined)[] = [];
  let retries = 0;
  let next = 0;
  /** A join counts once the media connection is up; a failed handshake is tried again, twice. */
  const joinConnected = async (target: JoinTarget, sink?: (rtp: RtpPacket) => void) => {
    for (let attempt = 0; ; attempt++) {
      const client = await joinSwarmClient(target, role, sink);
      const deadline = Date.now() + CONNECT_TIMEOUT_MS;
      while (
        client.connectionState !== 'connected' &&
        client.connectionState !== 'failed' &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      if (client.connectionState === 'connected') return client;
      const state = client.describe();
      await client.close();
      if (attempt === 2) throw new Error(`never connected: ${state}`);
      retries++;
    }
  };
  const worker = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      try {
        if (role === 'publisher') {
          const publisher = await joinConnected(target);
          group.publishers.push(publisher);
          feeds.push(publisher.feed);
        } else {
          const slot = group.received.length;
          const sink = subscriberSink(group, slot);
          try {
            const client = await joinConnected(target, sink);
            group.subscribers.push(client);
            group.bySlot[slot] = client;
          } catch (error) {
            group.failed.add(slot);
            throw error;
          }
        }
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  return {
    ok: 'joined',
    clients: group.subscribers.length + group.publishers.length,
    failures,
    feeds,
    retries,
  };
}

function sendOne(group: Group, payloadBytes: number): void {
  const client = group.publishers[0];
  if (!client) throw new Error('no publisher in this group');
  const index = group.nextIndex++;
  const packet = new RtpPacket(
    new RtpHeader({
      payloadType: 111,
      sequenceNumber: group.sequenceNumber,
      timestamp: group.timestamp,
      ssrc: 0xbeef,
    }),
    benchPayload(index, nowUs(), payloadBytes),
  );
  group.sequenceNumber = (group.sequenceNumber + 1) & 0xffff;
  group.timestamp = (group.timestamp + 960) >>> 0;
  client.sendRtp(packet);
}

function stopSilence(group: Group): void {
  for (const timer of group.silence) clearTimeout(timer);
  group.silence = [];
}

/** Each publisher sends DTX frames at its own phase, with its own sequence and timestamps. */
function startSilence(group: Group): void {
  stopSilence(group);
  for (const client of group.publishers) {
    let sequenceNumber = 1;
    let timestamp = 0;
    const send = () => {
      const header = new RtpHeader({ payloadType: 111, sequenceNumber, timestamp, ssrc: 0xbeef });
      sequenceNumber = (sequenceNumber + 1) & 0xffff;
      timestamp = (timestamp + (48_000 * DTX_INTERVAL_MS) / 1000) >>> 0;
      client.sendRtp(new RtpPacket(header, DTX_FRAME));
    };
    group.silence.push(
      setTimeout(() => {
        send();
        group.silence.push(setInterval(send, DTX_INTERVAL_MS));
      }, Math.random() * DTX_INTERVAL_MS),
    );
  }
}

/** Paced against the clock, so timer drift does not thin the stream. */
async function paced(
  group: Group,
  count: number,
  payloadBytes: number,
  go: () => boolean,
): Promise<void> {
  const start = performance.now();
  for (let sent = 0; sent < count && go(); sent++) {
    const wait = start + (sent * 1000) / PACKETS_PER_SECOND - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sendOne(group, payloadBytes);
  }
}

async function run(message: SwarmCommand): Promise<SwarmReply> {
  const group = groupFor(message.group);
  switch (message.cmd) {
    case 'join':
      return join(group, message.role, message.targets, message.concurrency ?? 5);
    case 'stream':
      if (message.on && !group.streaming) {
        group.streaming = true;
        group.stream = paced(
          group,
          Number.POSITIVE_INFINITY,
          BENCH_PAYLOAD_BYTES,
          () => group.streaming,
        );
      } else if (!message.on) {
        group.streaming = false;
        await group.stream;
      }
      return { ok: 'streaming', nextIndex: group.nextIndex };
    case 'publish': {
      const from = group.nextIndex;
      await paced(
        group,
        message.seconds * PACKETS_PER_SECOND,
        message.payloadBytes ?? BENCH_PAYLOAD_BYTES,
        () => true,
      );
      return { ok: 'published', from, to: group.nextIndex };
    }
    case 'window':
      group.window = { from: message.from, to: message.to };
      group.received.fill(0);
      group.delays = new DelayHistogram();
      return { ok: 'window' };
    case 'silence':
      if (message.on) startSilence(group);
      else stopSilence(group);
      return { ok: 'silence', members: group.publishers.length };
    case 'stats':
      return {
        ok: 'stats',
        received: group.received.filter((_, slot) => !group.failed.has(slot)),
        firstPacketUs: group.firstPacketUs.filter((_, slot) => !group.failed.has(slot)),
        delays: group.delays.bins(),
        publisher: group.publishers[0]?.describe(),
        silent: group.firstPacketUs.flatMap((first, slot) =>
          first === null && !group.failed.has(slot)
            ? [group.bySlot[slot]?.describe() ?? 'joining']
            : [],
        ),
      };
    case 'leave':
      stopSilence(group);
      group.streaming = false;
      await group.stream;
      await Promise.allSettled([...group.subscribers, ...group.publishers].map((c) => c.close()));
      groups.delete(message.group);
      return { ok: 'left' };
  }
}

// The parent disconnects to end us; exiting normally lets --cpu-prof write its profile.
process.on('disconnect', () => process.exit(0));

process.on('message', (message: SwarmCommand & { id: number }) => {
  run(message).then(
    (reply) => process.send?.({ ...reply, id: message.id }),
    (error: unknown) => process.send?.({ error: String(error), id: message.id }),
  );
});
