import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_VOICE_SECRET } from '../../../../server/src/voice/sfu/testing/sfu-test-server.js';
import { createVoiceToken } from '../../../../server/src/voice/voice-token.js';
import type { ServerUnderTest } from './server-under-test.js';

/**
 * Starts the built-in SFU in a child process. `SFU_COMPARE_CPU_PROF=<dir>` runs it under
 * `--cpu-prof`, for profiling the forwarding path under exactly the comparison's load;
 * `SFU_COMPARE_NODE_ARGS` adds Node options (e.g. `--trace-gc`). `root` runs the SFU of another
 * checkout of the project instead (its own copy of this entry), under `label`.
 */
export async function startBuiltInSfu(
  options: { root?: string; label?: string } = {},
): Promise<ServerUnderTest> {
  const profileDir = process.env.SFU_COMPARE_CPU_PROF;
  const entry = options.root
    ? join(options.root, 'bench/sfu/compare/servers/builtin-sfu-entry.ts')
    : fileURLToPath(new URL('./builtin-sfu-entry.ts', import.meta.url));
  const child = fork(entry, [], {
    execArgv: [
      '--import',
      'tsx',
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...(process.env.SFU_COMPARE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // SFU_COMPARE_DEBUG=werift* turns on werift's own debug log in the SFU process only.
    env: { ...process.env, DEBUG: process.env.SFU_COMPARE_DEBUG ?? '' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { type: 'ready'; url: string }) => resolve(message.url));
    child.once('exit', (code) => reject(new Error(`built-in SFU exited (${code})`)));
  });
  const token = async (room: string, user: string, canPublish: boolean) =>
    (
      await createVoiceToken({
        apiSecret: TEST_VOICE_SECRET,
        channelId: room,
        userId: user,
        userName: user,
        adminMuted: !canPublish,
      })
    ).token;
  return {
    kind: 'built-in',
    label: options.label ?? 'built-in',
    pid: child.pid ?? 0,
    publisherTarget: async (room, user) => ({
      server: 'built-in',
      url,
      token: await token(room, user, true),
    }),
    subscriberTarget: async (room, user) => ({
      server: 'built-in',
      url,
      token: await token(room, user, false),
    }),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'stop' });
      }),
  };
}
