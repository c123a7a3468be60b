import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';

/** Longer than any hook or test may take (hookTimeout is 60 s): only a main thread that never comes back. */
const BLOCKED_AFTER_MS = Number(process.env.CHIRP_TEST_BLOCKED_AFTER_MS ?? 180_000);

/**
 * Runs in a thread of its own, so it keeps running when the test file's main thread is stuck in a
 * synchronous wait (a futex, say), where no test or hook timeout can fire and the run would never
 * end. It then writes every thread's native stack and the kernel's wait channels to stderr (fd 2
 * directly: the thread's own stderr is relayed by the stuck main thread) and ends the process with SIGABRT, so
 * vitest reports the file as failed and the run goes on.
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { execFileSync } = require('node:child_process');
const { readdirSync, readFileSync, writeSync } = require('node:fs');
const beats = new Int32Array(workerData.beats);
let last = Atomics.load(beats, 0);
let since = Date.now();
const say = (text) => writeSync(2, text + '\\n');
const threads = () => readdirSync('/proc/self/task').map((id) => {
  const at = (name) => { try { return readFileSync('/proc/self/task/' + id + '/' + name, 'utf8').trim(); } catch { return '?'; } };
  return id + ' ' + at('comm') + ' waits in ' + at('wchan');
}).join('\\n');
setInterval(() => {
  const now = Atomics.load(beats, 0);
  if (now !== last) { last = now; since = Date.now(); return; }
  if (Date.now() - since < workerData.blockedAfterMs) return;
  say('\\n[watchdog] ' + workerData.file + ': the main thread has not run for ' + Math.round((Date.now() - since) / 1000) + ' s; threads:\\n' + threads());
  try {
    say(execFileSync('gdb', ['-p', String(process.pid), '-batch', '-ex', 'thread apply all bt 15'], { encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch (error) {
    say('[watchdog] no native stacks (gdb: ' + error.message + ')');
  }
  process.kill(process.pid, 'SIGABRT');
}, 5000);
`;

const beats = new Int32Array(new SharedArrayBuffer(4));
setInterval(() => Atomics.add(beats, 0, 1), 1000).unref();
new Worker(WATCHDOG, {
  eval: true,
  workerData: { beats: beats.buffer, blockedAfterMs: BLOCKED_AFTER_MS, file: expect.getState().testPath ?? 'a test file' },
}).unref();
