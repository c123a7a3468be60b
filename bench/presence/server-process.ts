import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/src/app.js';
import { createSession } from '../../server/src/auth/session-store.js';
import { resolveConfig } from '../../server/src/config/config.js';
import { parseEnv } from '../../server/src/config/env.js';
import { openDatabase } from '../../server/src/db/database.js';
import { channelMembers, channels, users } from '../../server/src/db/schema.js';

/**
 * The server under measurement, in its own process so its memory is its own. Seeds N members of one
 * channel straight into the database (signing 10,000 people in through the form would measure
 * argon2, not sockets) and answers memory questions over IPC.
 */
const send = (message: unknown) => process.send!(message);
const dataDir = mkdtempSync(join(tmpdir(), 'chirp-bench-'));
const config = resolveConfig(parseEnv({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:1' }));
const database = await openDatabase({ url: undefined, dataDir });
const app = await buildApp({ config, database, serveClient: false, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

process.on('message', (raw) => {
  const message = raw as { type: 'seed'; count: number } | { type: 'memory' } | { type: 'cpu' } | { type: 'stop' };
  void (async () => {
    if (message.type === 'seed') {
      const { db } = database;
      const created = await db
        .insert(users)
        .values(Array.from({ length: message.count }, (_, i) => ({ issuer: 'bench', subject: `u${Date.now()}-${i}`, firstName: 'User', lastName: String(i), email: `u${i}@bench` })))
        .returning({ id: users.id });
      const [channel] = await db.insert(channels).values({ name: 'Bench', createdBy: created[0]!.id }).returning();
      await db.insert(channelMembers).values(created.map((u) => ({ channelId: channel!.id, userId: u.id })));
      const tokens: string[] = [];
      for (const u of created) tokens.push(await createSession(db, u.id, undefined));
      send({ type: 'seeded', channelId: channel!.id, userIds: created.map((u) => u.id), tokens });
    } else if (message.type === 'cpu') {
      send({ type: 'cpu', usage: process.cpuUsage(), at: performance.now() });
    } else if (message.type === 'memory') {
      global.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 200));
      global.gc?.();
      send({ type: 'memory', usage: process.memoryUsage() });
    } else {
      await app.close();
      await database.close();
      process.exit(0);
    }
  })();
});

send({ type: 'ready', port, origin: config.publicUrl.origin });
