import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVoiceToken } from '../../../../server/src/voice/voice-token.js';
import { freeTcpPort, freeUdpPort } from '../free-ports.js';
import { waitUntil, type ServerUnderTest } from './server-under-test.js';

const API_KEY = 'benchkey';
const API_SECRET = 'bench-secret-bench-secret-bench-secret-42';

/**
 * Our own LiveKit server (the binary scripts/services.sh installs, path in TEST_LIVEKIT_BINARY), on
 * free loopback ports with one UDP port for all media, as in LiveKit's dev mode. Its log level is
 * `info` (dev mode would log at `debug`, which is not how anyone runs it under load).
 */
export async function startLiveKit(binary: string): Promise<ServerUnderTest> {
  const port = await freeTcpPort();
  const tcpPort = await freeTcpPort();
  const udpPort = await freeUdpPort();
  const dir = mkdtempSync(join(tmpdir(), 'chirp-livekit-bench-'));
  const config = [
    `port: ${port}`,
    'bind_addresses: ["127.0.0.1"]',
    'rtc:',
    `  tcp_port: ${tcpPort}`,
    `  udp_port: ${udpPort}`,
    '  use_external_ip: false',
    '  enable_loopback_candidate: true',
    'keys:',
    `  ${API_KEY}: ${API_SECRET}`,
    'logging:',
    '  level: info',
    'room:',
    '  empty_timeout: 20',
  ].join('\n');
  writeFileSync(join(dir, 'livekit.yaml'), config);
  const log = openSync(join(dir, 'livekit.log'), 'a');
  const child = spawn(binary, ['--config', join(dir, 'livekit.yaml'), '--node-ip', '127.0.0.1'], {
    stdio: ['ignore', log, log],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntil(
    async () => (await fetch(`http://127.0.0.1:${port}/`)).ok,
    30_000,
    `LiveKit (log: ${dir})`,
  );
  const url = `ws://127.0.0.1:${port}`;
  const token = async (room: string, user: string, canPublish: boolean) =>
    (
      await createVoiceToken({
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        channelId: room,
        userId: user,
        userName: user,
        adminMuted: !canPublish,
      })
    ).token;
  return {
    kind: 'livekit',
    label: 'LiveKit',
    pid: child.pid ?? 0,
    publisherTarget: async (room, user) => ({
      server: 'livekit',
      url,
      token: await token(room, user, true),
    }),
    subscriberTarget: async (room, user) => ({
      server: 'livekit',
      url,
      token: await token(room, user, false),
    }),
    async stop() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
