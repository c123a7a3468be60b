import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `npm run admin -- <argv>` as an operator types it, in its own process. */
function npmAdmin(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'admin', '--', ...argv],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run admin, the command', () => {
  it('refuses the embedded database while another process (the server) holds it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chirp-admin-cli-'));
    mkdirSync(join(dataDir, 'db'));
    writeFileSync(join(dataDir, 'db.lock'), String(process.pid));
    const { code, stderr } = await npmAdmin(['users'], { DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stderr).toContain(`in use by process ${process.pid}`);
  });

  // PostgreSQL only where one is configured (TEST_DATABASE_URL), like every integration suite.
  const postgresUrls = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : [];
  it.each(postgresUrls)('runs on the PostgreSQL of DATABASE_URL and exits 2 on a usage error', async (adminUrl) => {
    const name = `chirp_admin_cli_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`create database ${name}`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const listed = await npmAdmin(['users'], { DATABASE_URL: url.href });
      expect(listed).toMatchObject({ code: 0 });
      expect(listed.stdout).toContain('0 user(s)');
      const wrong = await npmAdmin(['grant-superadmin', 'nobody@example.com'], { DATABASE_URL: url.href });
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('No user nobody@example.com');
    } finally {
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    }
  });
});
