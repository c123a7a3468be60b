import { toolEnv } from '../config/tool-env.js';
import { openDatabase } from '../db/database.js';
import { deliverChannelEvent } from '../realtime/channel-event-publisher.js';
import { RedisBus } from '../realtime/redis-bus.js';
import { publishSessionControl } from '../realtime/session-control.js';
import { runAdminCommand, UsageError, type LiveServers } from './admin-commands.js';

/** Without Redis a running PostgreSQL server cannot be told: open connections last until it restarts. */
const NOT_LIVE_NOTE =
  'No REDIS_URL: a server running now keeps this account\'s open connections and voice until it restarts.';

/**
 * `npm run admin -- <command>`: user administration on the configured database. With REDIS_URL the
 * running servers hear of it on their bus (the same controls the app publishes), so sessions the
 * command ends close their sockets and voice at once.
 */
async function main(argv: string[]): Promise<number> {
  const env = toolEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.dataDirPath });
  const bus = env.REDIS_URL
    ? new RedisBus(env.REDIS_URL, env.REDIS_PREFIX, () => undefined)
    : undefined;
  const told = <T>(sent: Promise<T>) =>
    sent.catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`Saved, but the running servers could not be told over Redis (${why}).`);
    });
  const live: LiveServers | undefined = bus && {
    control: (control) => told(publishSessionControl(bus, control)),
    channelEvent: (event) => told(deliverChannelEvent(bus, database.db, event)),
  };
  try {
    return await runAdminCommand(database.db, argv, { print: (line) => console.log(line) }, {
      superadminEmails: env.SUPERADMIN_EMAILS,
      live,
      // With the embedded database the server is stopped while this runs: nothing to tell.
      notLiveNote: env.DATABASE_URL ? NOT_LIVE_NOTE : undefined,
    });
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  } finally {
    await bus?.close();
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
