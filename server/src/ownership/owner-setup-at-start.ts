import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { forgetSetupCodes, hasOwner, storeSetupCode } from './owner-store.js';
import { newSetupCode, setupCodeFile } from './setup-code.js';
import { setupCodeBanner, setupCodeLine } from './setup-code-banner.js';

/**
 * At start, while the server has no owner: mint a one-time setup code, keep only its hash in the
 * database in place of any earlier code (any instance accepts it), print it as one clear log line
 * and as a plain framed banner for the operator (`notice`: standard error, whatever the log's format
 * or level), and write it to `DATA_DIR/owner-setup-code` (mode 0600), as Jenkins and Grafana do.
 * Once owned: no codes, no file.
 */
export async function prepareOwnerSetup(
  db: Database,
  dataDir: string,
  log: FastifyBaseLogger,
  notice: (text: string) => void,
): Promise<void> {
  const file = setupCodeFile(dataDir);
  if (await hasOwner(db)) {
    await forgetSetupCodes(db);
    await removeSetupCodeFile(dataDir);
    return;
  }
  const code = newSetupCode();
  if (!(await storeSetupCode(db, code))) return removeSetupCodeFile(dataDir);
  try {
    // Nothing else may have created DATA_DIR yet (SESSION_SECRET set, data in PostgreSQL).
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(file, `${code}\n`, { mode: 0o600 });
  } catch (error) {
    log.warn({ err: error, file }, 'could not write the owner setup code file; use the code from this log');
  }
  // Deliberately logged: the operator needs it, and only the operator reads this log (like Jenkins).
  log.warn(
    `${setupCodeLine(code)} — sign in, open Settings and enter it under "Claim this server" (also in ${file}). Codes printed before this one no longer work.`,
  );
  notice(setupCodeBanner(code, file));
}

export async function removeSetupCodeFile(dataDir: string): Promise<void> {
  await rm(setupCodeFile(dataDir), { force: true });
}
