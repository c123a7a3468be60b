/**
 * The built-in SFU as the comparison measures it: the SFU's Fastify app (the `/rtc` socket and the
 * werift peers) alone in this process, on loopback. Reports its URL to the parent over IPC.
 * SFU_COMPARE_LOG=1 prints the SFU's info, warn and error logs (joins, leaves, failures).
 */
import type { SfuLogger } from '../../../../server/src/voice/sfu/sfu-logger.js';
import { silentSfuLogger } from '../../../../server/src/voice/sfu/sfu-logger.js';
import { startSfuTestServer } from '../../../../server/src/voice/sfu/testing/sfu-test-server.js';

const print =
  (level: string) =>
  (obj: object, msg?: string): void =>
    console.error(
      `[sfu ${level}] ${msg ?? ''} ${JSON.stringify(obj, (_k, v: unknown) => (v instanceof Error ? v.message : v))}`,
    );
const logger: SfuLogger = process.env.SFU_COMPARE_LOG
  ? { debug: () => undefined, info: print('info'), warn: print('warn'), error: print('error') }
  : silentSfuLogger;

const server = await startSfuTestServer({ logger });
if (process.env.SFU_COMPARE_LOG) {
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  setInterval(() => {
    const cpu = process.cpuUsage();
    console.error(
      `[sfu lag] p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms max ${(lag.max / 1e6).toFixed(0)} ms cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
    );
    lag.reset();
  }, 5_000).unref();
}
process.on('message', (message: { type: 'stop' }) => {
  if (message.type === 'stop') void server.close().then(() => process.exit(0));
});
process.send?.({ type: 'ready', url: server.url });
