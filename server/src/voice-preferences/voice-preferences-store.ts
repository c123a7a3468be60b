import { and, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_MEMBER_VOLUME,
  type VoicePreferences,
} from '../../../protocol/voice-preferences.js';
import type { Database } from '../db/database.js';
import { memberVolumes, voicePreferences } from '../db/schema.js';

/** The listener's preferences; defaults where they never changed anything. */
export async function readVoicePreferences(
  db: Database,
  userId: string,
): Promise<VoicePreferences> {
  const [switches] = await db
    .select({ rogerBeep: voicePreferences.rogerBeep })
    .from(voicePreferences)
    .where(eq(voicePreferences.userId, userId))
    .limit(1);
  const volumes = await db
    .select({ memberId: memberVolumes.memberId, volume: memberVolumes.volume })
    .from(memberVolumes)
    .where(eq(memberVolumes.listenerId, userId));
  return {
    rogerBeep: switches?.rogerBeep ?? false,
    memberVolumes: Object.fromEntries(volumes.map((row) => [row.memberId, row.volume])),
  };
}

export async function writeRogerBeep(
  db: Database,
  userId: string,
  rogerBeep: boolean,
): Promise<void> {
  await db
    .insert(voicePreferences)
    .values({ userId, rogerBeep })
    .onConflictDoUpdate({
      target: voicePreferences.userId,
      set: { rogerBeep, updatedAt: sql`now()` },
    });
}

/** 100 % is the default, so it is stored as no row: the table holds only real choices. */
export async function writeMemberVolume(
  db: Database,
  listenerId: string,
  memberId: string,
  volume: number,
): Promise<void> {
  if (volume === DEFAULT_MEMBER_VOLUME) {
    await db
      .delete(memberVolumes)
      .where(and(eq(memberVolumes.listenerId, listenerId), eq(memberVolumes.memberId, memberId)));
    return;
  }
  await db
    .insert(memberVolumes)
    .values({ listenerId, memberId, volume })
    .onConflictDoUpdate({
      target: [memberVolumes.listenerId, memberVolumes.memberId],
      set: { volume, updatedAt: sql`now()` },
    });
}

/** Postgres' foreign-key violation, as the driver reports it (or wraps it, in drizzle's error). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (value: unknown) =>
    typeof value === 'object' && value !== null && 'code' in value ? value.code : undefined;
  return code(error) === '23503' || code((error as { cause?: unknown } | null)?.cause) === '23503';
}
