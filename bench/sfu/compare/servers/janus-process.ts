import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freeTcpPort, udpPortRange } from '../free-ports.js';
import { waitUntil, type ServerUnderTest } from './server-under-test.js';

const JANUS_LIB = process.env.JANUS_LIB_DIR ?? '/usr/lib/x86_64-linux-gnu/janus';

function canOpen(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, 'janus-protocol');
    ws.once('open', () => {
      ws.close();
      resolve(true);
    });
    ws.once('error', () => resolve(false));
  });
}

/**
 * Janus (Debian's `janus`, installed by scripts/services.sh) with a generated configuration: the
 * VideoRoom plugin and the WebSocket transport only, ICE on loopback, its default log level, no
 * event handlers. Rooms are created over the API by each publisher.
 */
export async function startJanus(
  binary = process.env.JANUS_BINARY ?? 'janus',
): Promise<ServerUnderTest> {
  const wsPort = await freeTcpPort();
  const [rtpMin, rtpMax] = udpPortRange(4000);
  const dir = mkdtempSync(join(tmpdir(), 'chirp-janus-bench-'));
  for (const folder of ['plugins', 'transports', 'events', 'loggers']) mkdirSync(join(dir, folder));
  symlinkSync(
    join(JANUS_LIB, 'plugins/libjanus_videoroom.so'),
    join(dir, 'plugins/libjanus_videoroom.so'),
  );
  symlinkSync(
    join(JANUS_LIB, 'transports/libjanus_websockets.so'),
    join(dir, 'transports/libjanus_websockets.so'),
  );
  writeFileSync(
    join(dir, 'janus.jcfg'),
    `general: {
  configs_folder = "${dir}"
  plugins_folder = "${dir}/plugins"
  transports_folder = "${dir}/transports"
  events_folder = "${dir}/events"
  loggers_folder = "${dir}/loggers"
  session_timeout = 60
}
media: {
  rtp_port_range = "${rtpMin}-${rtpMax}"
}
nat: {
  ice_enforce_list = "lo"
}
`,
  );
  writeFileSync(
    join(dir, 'janus.transport.websockets.jcfg'),
    `general: {
  ws = true
  ws_port = ${wsPort}
  ws_ip = "127.0.0.1"
  wss = false
}
admin: {
  admin_ws = false
}
`,
  );
  writeFileSync(join(dir, 'janus.plugin.videoroom.jcfg'), 'general: {\n}\n');
  const log = openSync(join(dir, 'janus.log'), 'a');
  const child = spawn(binary, ['-C', join(dir, 'janus.jcfg'), '-F', dir, '-o'], {
    stdio: ['ignore', log, log],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `ws://127.0.0.1:${wsPort}`;
  await waitUntil(() => canOpen(url), 30_000, `Janus (log: ${dir})`);
  const rooms = new Map<string, number>();
  const roomId = (room: string) => {
    let id = rooms.get(room);
    if (id === undefined) rooms.set(room, (id = 1000 + rooms.size));
    return id;
  };
  return {
    kind: 'janus',
    label: 'Janus',
    pid: child.pid ?? 0,
    publisherTarget: async (room) => ({ server: 'janus', url, room: roomId(room) }),
    subscriberTarget: async (room, _user, feed) => ({
      server: 'janus',
      url,
      room: roomId(room),
      feed,
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
