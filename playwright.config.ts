import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import pg from 'pg';
import { chromiumArgs } from './e2e/support/chromium-args';
import { useScratchTmpdir } from './server/src/testing/scratch-tmpdir';
import { makePushServiceCertificate } from './server/src/push/testing/local-push-service';
import {
  freeTcpPort,
  livekitCommand,
  livekitKeys,
  livekitPorts,
} from './e2e/support/livekit/livekit-server';

// Every temporary folder of the run (servers' data, PostgreSQL clusters, LiveKit's files) goes in
// one scratch folder, removed by the global teardown.
useScratchTmpdir('chirp-e2e-run');
// Chosen once in the main process; workers inherit the environment and reuse the same servers.
process.env.E2E_PORT ??= String(await freeTcpPort());
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'chirp-e2e-'));
// e2e/push.spec.ts and e2e/sos.spec.ts stand in for the browsers' push service with an HTTPS server of its own: the
// embedded server trusts its certificate, made here once for the run.
if (!process.env.E2E_PUSH_CERT_FILE) {
  const certificate = makePushServiceCertificate(mkdtempSync(join(tmpdir(), 'chirp-e2e-push-')));
  process.env.E2E_PUSH_CERT_FILE = certificate.certFile;
  process.env.E2E_PUSH_KEY_FILE = certificate.keyFile;
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;

/**
 * The voice suites also run on a real LiveKit server of their own (webhooks pointed at its Chirp
 * server, a room prefix of the run) whenever `scripts/services.sh` made LiveKit and PostgreSQL
 * available: CI always does. Its Chirp server runs on PostgreSQL so tests can read the usage rows.
 */
const livekitBinary = process.env.TEST_LIVEKIT_BINARY;
const databaseUrl = process.env.TEST_DATABASE_URL;
const withLivekit = Boolean(livekitBinary && databaseUrl);
/** Several Chirp instances behind nginx (TLS) on PostgreSQL + Redis + LiveKit. */
const withMultiInstance =
  withLivekit && Boolean(process.env.TEST_REDIS_URL) && Boolean(process.env.TEST_NGINX_BINARY);

if (withLivekit && !process.env.E2E_LK_CHIRP_PORT) {
  const ports = await livekitPorts();
  const keys = livekitKeys();
  const name = `chirp_e2e_lk_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(databaseUrl!);
  url.pathname = `/${name}`;
  Object.assign(process.env, {
    E2E_LK_CHIRP_PORT: String(await freeTcpPort()),
    E2E_LK_PORT: String(ports.port),
    E2E_LK_TCP_PORT: String(ports.tcpPort),
    E2E_LK_UDP_PORT: String(ports.udpPort),
    E2E_LK_API_KEY: keys.apiKey,
    E2E_LK_API_SECRET: keys.apiSecret,
    E2E_LK_ROOM_PREFIX: `e2e${randomBytes(3).toString('hex')}-`,
    E2E_LK_DIR: mkdtempSync(join(tmpdir(), 'chirp-e2e-livekit-')),
    E2E_LK_DATABASE_NAME: name,
    E2E_LK_DATABASE_URL: url.href,
  });
}
const livekitChirpURL = `http://localhost:${process.env.E2E_LK_CHIRP_PORT}`;

const chirpEnv = (chirpPort: number, publicUrl: string, dataDir: string) => ({
  PORT: String(chirpPort),
  HOST: '127.0.0.1',
  PUBLIC_URL: publicUrl,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  REDIS_URL: '',
  OIDC_ISSUER_URL: '',
  SUPERADMIN_EMAILS: '',
  // No TERMS_URL/PRIVACY_URL: the landing links the server's own /legal pages (e2e/first-start.spec.ts).
});

const webServers: NonNullable<PlaywrightTestConfig['webServer']> = [
  {
    command: 'node dist/server/server/src/main.js',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    // Generous: a loaded machine can take a while to boot the server; a quick one does not wait.
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { ...chirpEnv(port, baseURL, process.env.E2E_DATA_DIR), NODE_EXTRA_CA_CERTS: process.env.E2E_PUSH_CERT_FILE },
  },
];
if (withLivekit) {
  const env = (name: string) => process.env[name] ?? '';
  const chirpPort = Number(env('E2E_LK_CHIRP_PORT'));
  webServers.push(
    {
      command: livekitCommand(
        livekitBinary ?? '',
        {
          port: Number(env('E2E_LK_PORT')),
          tcpPort: Number(env('E2E_LK_TCP_PORT')),
          udpPort: Number(env('E2E_LK_UDP_PORT')),
          apiKey: env('E2E_LK_API_KEY'),
          apiSecret: env('E2E_LK_API_SECRET'),
          webhookUrls: [`http://127.0.0.1:${chirpPort}/api/livekit/webhook`],
          // Rooms close soon after the last person leaves, so room_finished is seen in a test.
          departureTimeout: 2,
        },
        env('E2E_LK_DIR'),
      ).join(' '),
      url: `http://127.0.0.1:${env('E2E_LK_PORT')}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node dist/server/server/src/main.js',
      url: `${livekitChirpURL}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...chirpEnv(chirpPort, livekitChirpURL, join(env('E2E_LK_DIR'), 'data')),
        DATABASE_URL: env('E2E_LK_DATABASE_URL'),
        VOICE_PROVIDER: 'livekit',
        LIVEKIT_URL: `ws://127.0.0.1:${env('E2E_LK_PORT')}`,
        LIVEKIT_API_KEY: env('E2E_LK_API_KEY'),
        LIVEKIT_API_SECRET: env('E2E_LK_API_SECRET'),
        LIVEKIT_ROOM_PREFIX: env('E2E_LK_ROOM_PREFIX'),
        // Its pushes go to the same local push service (e2e/sos.spec.ts runs on both providers).
        NODE_EXTRA_CA_CERTS: process.env.E2E_PUSH_CERT_FILE,
      },
    },
  );
}

const browserUse = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  },
  permissions: ['microphone'],
  // A real user's setting the app honours. Without a GPU, Chromium composites every frame of the
  // app's pulsing "on the air" rings in software: 2 pages on the air cost 1.7 cores instead of 0.4,
  // which starved the audio checks on a two-core machine.
  reducedMotion: 'reduce' as const,
  trace: 'retain-on-failure' as const,
  screenshot: 'only-on-failure' as const,
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  use: browserUse,
  projects: [
    {
      name: 'embedded',
      use: { baseURL },
      testIgnore: [
        'livekit.spec.ts',
        'multi-instance.spec.ts',
        'livekit-cluster.spec.ts',
        'faults.spec.ts',
      ],
    },
    ...(withLivekit
      ? [
          {
            // One suite, two providers: the voice tests tagged @livekit run here on LiveKit.
            name: 'livekit',
            use: { baseURL: livekitChirpURL },
            testMatch: [
              'voice.spec.ts',
              'livekit.spec.ts',
              'walkie-talkie.spec.ts',
              'missed-transmissions.spec.ts',
              'direct-talk.spec.ts',
              'member-actions.spec.ts',
              'sos.spec.ts',
            ],
            grep: /@livekit/,
          },
        ]
      : []),
    // Several Chirp instances (nginx, TLS, a killed instance) and a two-node LiveKit cluster: each
    // test starts its own processes.
    ...(withMultiInstance
      ? [
          {
            name: 'multi-instance',
            testMatch: ['multi-instance.spec.ts', 'livekit-cluster.spec.ts'],
          },
        ]
      : []),
    // Last and alone: it adds a network link to the host, pulls its cable and deletes it. Browsers
    // of other tests gather ICE candidates on every interface, so one that picked that link lost
    // its audio mid-test when the link went (a CI run: a listener heard nothing for 15 s).
    {
      name: 'faults',
      use: { baseURL },
      testMatch: ['faults.spec.ts'],
      dependencies: [
        'embedded',
        ...(withLivekit ? ['livekit'] : []),
        ...(withMultiInstance ? ['multi-instance'] : []),
      ],
    },
  ],
  webServer: webServers,
});
