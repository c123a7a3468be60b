import { startServer } from '../start-server.js';

/**
 * The server exactly as `npm start` runs it — same start, same signal handling — minus the client
 * bundle (tests run before the build). For tests that stop it with real signals.
 */
await startServer(process.env, { serveClient: false });
