import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT_VARIABLE = 'CHIRP_TEST_SCRATCH';

/**
 * One scratch folder per test run, made the run's TMPDIR: every temporary folder the suites make
 * (PGlite data directories, DATA_DIRs, backups, PostgreSQL clusters, LiveKit's files) lands inside
 * it and goes with it when the run ends. Without it each run left gigabytes in /tmp, and repeated
 * runs on one machine filled its disk (tests then failed far from the cause). Called where a run's
 * configuration loads, before any worker or server process starts, so they all inherit it.
 */
export function useScratchTmpdir(name: string): string {
  const existing = process.env[ROOT_VARIABLE];
  if (existing) return existing;
  const root = mkdtempSync(join(tmpdir(), `${name}-`));
  // mkdtemp makes it 0700: the faults spec's PostgreSQL cluster runs initdb as the postgres user.
  chmodSync(root, 0o755);
  process.env[ROOT_VARIABLE] = root;
  process.env.TMPDIR = root;
  return root;
}

/** Removes the run's scratch folder (from its global teardown). */
export function removeScratchTmpdir(): void {
  const root = process.env[ROOT_VARIABLE];
  if (root) rmSync(root, { recursive: true, force: true });
}
