/**
 * The built-in SFU's per-packet forwarding cost, without a swarm: one talker's packets (RED-sized) go
 * through N forwarders (header rewrite, SRTP, UDP send) at 50 packets/s, as the SFU does for a
 * room of N listeners: the addon's fan-out (`NativeRtpForwarder`, when built) and the JavaScript
 * `RtpForwarder`, one after the other. The forwarders sit on werift-shaped stand-ins
 * (`standInForwarder`), with real UDP sockets to a receiver process. Prints the CPU per forwarded
 * packet with the UDP send, and for the JavaScript forwarder also with the send left out, so its own
 * work and the socket's can be told apart; a quick loop for optimising it before the full
 * comparison (`npm run bench sfu-compare`).
 *
 *   npx tsx bench/sfu/rtp-forwarder.bench.ts [listeners=300] [seconds=8] [payload bytes=165, RED-sized]
 */
import { fork } from 'node:child_process';
import dgram from 'node:dgram';
import { ProtectionProfileAes128CmHmacSha1_80 } from 'werift';
import { RED_PAYLOAD_BYTES } from './swarm/bench-packet.js';
import { sendsNatively } from '../../server/src/voice/sfu/datagram-batch.js';
import type { ForwardedPacket, TalkerForwarder } from '../../server/src/voice/sfu/rtp-forwarder.js';
import { SenderReports } from '../../server/src/voice/sfu/sender-reports.js';
import {
  forwarderKinds,
  standInForwarder,
  type ForwarderKind,
} from '../../server/src/voice/sfu/testing/stand-in-forwarder.js';

const LISTENERS = Number(process.argv[2] ?? 300);
const SECONDS = Number(process.argv[3] ?? 8);
const PAYLOAD_BYTES = Number(process.argv[4] ?? RED_PAYLOAD_BYTES);

if (process.env.RTP_FORWARDER_BENCH_RECEIVER) {
  // The receiving side: one socket per listener, like the listeners' browsers.
  const ports: number[] = [];
  for (let i = 0; i < LISTENERS; i++) {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    socket.on('message', () => undefined);
    ports.push(socket.address().port);
  }
  process.send?.(ports);
} else {
  const receiver = fork(new URL(import.meta.url).pathname, process.argv.slice(2), {
    env: { ...process.env, RTP_FORWARDER_BENCH_RECEIVER: '1' },
    execArgv: ['--import', 'tsx'],
  });
  const ports = await new Promise<number[]>((resolve) => receiver.once('message', resolve));
  for (const kind of forwarderKinds()) await measure(kind, ports);
  receiver.kill();
  process.exit(0);
}

async function measure(kind: ForwarderKind, ports: number[]): Promise<void> {
  let index = 0;
  const reports = new SenderReports();
  const transports: { closed: boolean }[] = [];
  const forwarders: TalkerForwarder[] = [];
  for (let i = 0; i < LISTENERS; i++) {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    // The real socket, so the send takes the SFU's own path (`DatagramBatch`); a closed
    // transport is how the forwarder-alone run leaves the send out.
    if (i === 0 && !sendsNatively(socket))
      console.log('(dgram internals not found: datagrams go through socket.send)');
    const { forwarder, transport } = standInForwarder({
      socket,
      remotePort: ports[i]!,
      ssrc: 1000 + i,
      localContext: {
        profile: ProtectionProfileAes128CmHmacSha1_80,
        cipher: {
          srtpSessionKey: Buffer.alloc(16, i),
          srtpSessionSalt: Buffer.alloc(14, 1),
          srtpSessionAuthTag: Buffer.alloc(20, 2),
        },
      },
      reports,
      kind,
    });
    transports.push(transport);
    forwarders.push(forwarder);
  }

  const payload = Buffer.alloc(PAYLOAD_BYTES, 0x5a);
  const run = async (seconds: number) => {
    const start = process.cpuUsage();
    let packets = 0;
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const packet: ForwardedPacket = {
        header: {
          ssrc: 42,
          sequenceNumber: index & 0xffff,
          timestamp: (index * 960) >>> 0,
          marker: false,
        },
        payload,
      };
      index++;
      for (const forwarder of forwarders) forwarder.send(packet);
      packets += LISTENERS;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const used = process.cpuUsage(start);
    return {
      user: used.user / packets,
      system: used.system / packets,
      core: (used.user + used.system) / (seconds * 1e4),
    };
  };
  await run(2); // warm up
  const withSend = await run(SECONDS);
  for (const transport of transports) transport.closed = true;
  const without = kind === 'javascript' ? await run(SECONDS) : undefined;
  const line = (label: string, r: { user: number; system: number; core: number }) =>
    `${label.padEnd(26)} ${(r.user + r.system).toFixed(2).padStart(6)} µs per forwarded packet (user ${r.user.toFixed(2)}, system ${r.system.toFixed(2)}) | ${r.core.toFixed(1)} % of a core`;
  console.log(
    `${kind === 'native' ? "NativeRtpForwarder (the addon's fan-out)" : 'RtpForwarder (JavaScript)'}, 1 talker → ${LISTENERS} listeners, 50 packets/s of ${PAYLOAD_BYTES}-byte payloads:`,
  );
  console.log(line('with the UDP send', withSend));
  if (without) console.log(line('forwarder alone (no send)', without));
  console.log(
    `  → ${Math.floor(1e6 / 50 / (withSend.user + withSend.system))} forwarded streams per core`,
  );
  reports.close();
}
