import pg from 'pg';
import { removeScratchTmpdir } from '../../server/src/testing/scratch-tmpdir';

/**
 * Drops the throwaway database the LiveKit project's Chirp server used (made in
 * playwright.config.ts), and removes the run's scratch folder.
 */
export default async function globalTeardown(): Promise<void> {
  removeScratchTmpdir();
  const name = process.env.E2E_LK_DATABASE_NAME;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!name || !adminUrl) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
