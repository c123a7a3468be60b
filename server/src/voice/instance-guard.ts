import { hostname } from 'node:os';
import { and, eq, gt, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/env.js';
import type { Database } from '../db/database.js';
import { serverInstances } from '../db/schema.js';

/** An instance is live while it refreshed its row within this long. */
export const INSTANCE_LIVE_MS = 25_000;
const HEARTBEAT_MS = 8_000;

export class VoiceInstanceConflict extends ConfigError {}

type InstanceRow = typeof serverInstances.$inferSelect;

/**
 * Why these instances cannot share a database as configured, or undefined when they can. The
 * built-in SFU keeps each voice room inside one process: with several instances, people in one
 * channel would land in different rooms and not hear each other, unless every /rtc request reaches
 * one instance (VOICE_PINNED). Mixed providers split a channel the same way.
 */
export function voiceConflict(
  self: Pick<InstanceRow, 'voiceProvider' | 'voicePinned'>,
  others: readonly InstanceRow[],
): string | undefined {
  if (others.length === 0) return undefined;
  const names = others.map((other) => other.id).join(', ');
  const mixed = others.find((other) => other.voiceProvider !== self.voiceProvider);
  if (mixed)
    return (
      `Another Chirp instance on this database (${mixed.id}) uses VOICE_PROVIDER=${mixed.voiceProvider}, this one ` +
      `${self.voiceProvider}: every instance must use the same voice provider.`
    );
  if (
    self.voiceProvider === 'embedded' &&
    !(self.voicePinned && others.every((other) => other.voicePinned))
  )
    return (
      `Other Chirp instances share this database (${names}) and voice is on the built-in SFU, which cannot span ` +
      'instances: people in one channel would not hear each other. Use VOICE_PROVIDER=livekit, or route every ' +
      '/rtc request to one instance and set VOICE_PINNED=true on all of them (README: "Several instances").'
    );
  return undefined;
}

/**
 * Registers this process in `server_instances` and refuses to start it when it conflicts with
 * another live instance on the same database (PostgreSQL only: PGlite is one process by nature).
 * Keeps the row fresh; a sibling that appears later is reported in the log. The id is host:port, so
 * a restarted process takes over its own row instead of tripping over it.
 */
export async function guardVoiceInstances(
  db: Database,
  config: Config,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): Promise<{ stop(): Promise<void> }> {
  const id = `${hostname()}:${config.port}`;
  const self = { voiceProvider: config.voice.provider, voicePinned: config.voice.pinned };
  const beat = async () => {
    await db
      .insert(serverInstances)
      .values({ id, ...self, startedAt: now(), seenAt: now() })
      .onConflictDoUpdate({ target: serverInstances.id, set: { ...self, seenAt: now() } });
    return db
      .select()
      .from(serverInstances)
      .where(
        and(
          ne(serverInstances.id, id),
          gt(serverInstances.seenAt, new Date(now().getTime() - INSTANCE_LIVE_MS)),
        ),
      );
  };
  const conflict = voiceConflict(self, await beat());
  if (conflict) {
    await db.delete(serverInstances).where(eq(serverInstances.id, id));
    throw new VoiceInstanceConflict(`Refusing to start: ${conflict}`);
  }
  const reported = new Set<string>();
  const timer = setInterval(() => {
    beat()
      .then((others) => {
        const message = voiceConflict(self, others);
        const key = others.map((other) => other.id).join(',');
        if (message && !reported.has(key)) {
          reported.add(key);
          log.error(message);
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, 'instance heartbeat failed'));
  }, HEARTBEAT_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await db
        .delete(serverInstances)
        .where(eq(serverInstances.id, id))
        .catch(() => undefined);
    },
  };
}
