import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The secret that signs cookies and voice tokens. When it is not configured it is generated once and
 * kept in DATA_DIR, so sessions survive restarts without anyone having to invent a secret.
 */
export function loadSessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'session-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
