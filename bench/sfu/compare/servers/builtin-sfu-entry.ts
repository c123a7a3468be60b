/**
 * The built-in SFU as the comparison measures it: the SFU's Fastify app (the `/rtc` socket and the
 * werift peers) alone in this process, on loopback. Reports its URL to the parent over IPC.
 */
import { startSfuTestServer } from '../../../../server/src/voice/sfu/testing/sfu-test-server.js';

const server = await startSfuTestServer();
process.on('message', (message: { type: 'stop' }) => {
  if (message.type === 'stop') void server.close().then(() => process.exit(0));
});
process.send?.({ type: 'ready', url: server.url });
