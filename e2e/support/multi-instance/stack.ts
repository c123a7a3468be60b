import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import {
  freeTcpPort,
  livekitKeys,
  livekitPorts,
  startLivekit,
  type RunningLivekit,
} from '../livekit/livekit-server';

/**
 * Several Chirp instances as an operator runs them: PostgreSQL, Redis, LiveKit, and nginx with TLS
 * in front, configured by the shipped deploy/nginx/chirp.conf.template (only ports, paths and the
 * certificate are the test's). Every process is the test's own and is killed by its PID.
 */
export interface ChirpInstance {
  name: string;
  port: number;
  /** Its PUBLIC_URL: nginx's address behind nginx, its own otherwise. */
  url: string;
  /** Its DATA_DIR: where it writes the owner setup code while the deployment has no owner. */
  dataDir: string;
  pid: number;
  process: ChildProcess;
  kill(): Promise<void>;
}

export interface Stack {
  dir: string;
  /** What browsers open: nginx, TLS, self-signed. */
  publicUrl: string;
  livekitPublicUrl: string;
  instances: ChirpInstance[];
  livekit: RunningLivekit[];
  databaseUrl: string;
  certificate: string;
  /** The instances' shared Redis key prefix (presence, bus). */
  redisPrefix: string;
  /** LiveKit's room names of this deployment: prefix + channel id. */
  roomPrefix: string;
  livekitKeys: { apiKey: string; apiSecret: string };
  /** Which instance nginx sent a request to, by a unique marker in its query string. */
  servedBy(marker: string): Promise<string | undefined>;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is needed (scripts/services.sh exports it)`);
  return value;
};

/** A certificate for localhost and 127.0.0.1, made fresh for the run. */
function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`openssl failed: ${result.stderr}`);
  return { cert, key };
}

/** envsubst, for exactly the given names: nginx's own $variables stay untouched. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  const rendered = template.replace(
    /\$\{([A-Z_]+)\}/g,
    (whole, name: string) => values[name] ?? whole,
  );
  const left = /\$\{[A-Z_]+\}/.exec(rendered);
  if (left) throw new Error(`template variable ${left[0]} has no value`);
  return rendered;
}

async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs: number,
  process?: ChildProcess,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process && process.exitCode !== null)
      throw new Error(`${what}: the process exited (${process.exitCode})`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

function killer(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
}

export interface StackOptions {
  instances?: number;
  /**
   * Two LiveKit nodes on one Redis form a cluster; instance i uses node i % nodes. Without nginx
   * (the cluster stretch), browsers open each instance directly over plain HTTP.
   */
  livekitNodes?: 1 | 2;
  behindNginx?: boolean;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const count = options.instances ?? 2;
  const nodes = options.livekitNodes ?? 1;
  const behindNginx = options.behindNginx ?? true;
  const dir = mkdtempSync(join(tmpdir(), 'chirp-multi-'));
  // nginx workers run as an unprivileged user; they need to reach the temp paths.
  chmodSync(dir, 0o755);
  const { cert, key } = selfSignedCertificate(dir);
  const adminUrl = need('TEST_DATABASE_URL');
  const redisUrl = need('TEST_REDIS_URL');
  const databaseName = `chirp_multi_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${databaseName}`;
  const databaseUrl = dbUrl.href;

  const nginxPort = await freeTcpPort();
  const nginxLivekitPort = await freeTcpPort();
  const publicUrl = `https://localhost:${nginxPort}`;
  const livekitPublicUrl = `wss://localhost:${nginxLivekitPort}`;
  const chirpPorts = await Promise.all(Array.from({ length: count }, () => freeTcpPort()));
  const keys = livekitKeys();
  // LiveKit keeps its cluster state under fixed Redis keys: a database index of the run's own keeps
  // it apart from anything else on the shared Redis.
  const redis = new URL(redisUrl);
  const livekitRedis = {
    address: `${redis.hostname}:${redis.port || 6379}`,
    db: 1 + Math.floor(Math.random() * 15),
  };
  const livekit: RunningLivekit[] = [];
  for (let node = 0; node < nodes; node++)
    livekit.push(
      await startLivekit(
        need('TEST_LIVEKIT_BINARY'),
        {
          ...(await livekitPorts()),
          ...keys,
          // Every instance hears every event; metering is idempotent, and a dead instance misses none.
          webhookUrls: chirpPorts.map((port) => `http://127.0.0.1:${port}/api/livekit/webhook`),
          departureTimeout: 2,
          ...(nodes > 1 ? { redis: livekitRedis } : {}),
        },
        dir,
      ),
    );

  const sessionSecret = randomBytes(32).toString('base64url');
  const redisPrefix = `chirp-multi-${randomBytes(4).toString('hex')}:`;
  const roomPrefix = `multi${randomBytes(2).toString('hex')}-`;
  const instances: ChirpInstance[] = [];
  for (const [index, port] of chirpPorts.entries()) {
    const name = String.fromCharCode(97 + index);
    const log = openSync(join(dir, `chirp-${name}.log`), 'a');
    const child = spawn(process.execPath, ['dist/server/server/src/main.js'], {
      stdio: ['ignore', log, log],
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: behindNginx ? publicUrl : `http://localhost:${port}`,
        DATA_DIR: join(dir, `data-${name}`),
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        SESSION_SECRET: sessionSecret,
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'info',
        VOICE_PROVIDER: 'livekit',
        LIVEKIT_URL: behindNginx ? livekitPublicUrl : livekit[index % nodes]!.url,
        LIVEKIT_API_KEY: keys.apiKey,
        LIVEKIT_API_SECRET: keys.apiSecret,
        LIVEKIT_ROOM_PREFIX: roomPrefix,
        // RoomService goes through nginx like the browsers do; trust the run's certificate.
        NODE_EXTRA_CA_CERTS: cert,
      },
    });
    instances.push({
      name,
      port,
      url: behindNginx ? publicUrl : `http://localhost:${port}`,
      dataDir: join(dir, `data-${name}`),
      pid: child.pid!,
      process: child,
      kill: killer(child),
    });
  }
  // Up first (/healthz): behind nginx an instance reaches LiveKit through nginx, so it is ready
  // (/readyz checks every dependency) only once nginx runs.
  for (const instance of instances)
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${instance.port}/healthz`)).ok,
      `Chirp instance ${instance.name}`,
      90_000,
      instance.process,
    );

  async function startNginx(): Promise<() => Promise<void>> {
    const template = readFileSync(
      new URL('../../../deploy/nginx/chirp.conf.template', import.meta.url),
      'utf8',
    );
    writeFileSync(
      join(dir, 'chirp.conf'),
      renderTemplate(template, {
        CHIRP_SERVER_NAME: 'localhost',
        CHIRP_HTTPS_PORT: String(nginxPort),
        CHIRP_TLS_CERT: cert,
        CHIRP_TLS_KEY: key,
        CHIRP_INSTANCE_A: `127.0.0.1:${chirpPorts[0]}`,
        CHIRP_INSTANCE_B: `127.0.0.1:${chirpPorts[1] ?? chirpPorts[0]}`,
        LIVEKIT_SERVER_NAME: 'localhost',
        LIVEKIT_HTTPS_PORT: String(nginxLivekitPort),
        LIVEKIT_UPSTREAM: livekit[0]!.url.replace('ws://', ''),
        LIVEKIT_TLS_CERT: cert,
        LIVEKIT_TLS_KEY: key,
      }),
    );
    // The main file only places the shipped server configuration into an http block of the test's own.
    const temp = join(dir, 'nginx-temp');
    mkdirSync(temp, { mode: 0o777 });
    chmodSync(temp, 0o777);
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'nginx-error.log')} warn;`,
        'worker_processes 1;',
        'events { worker_connections 512; }',
        'http {',
        // The test's own log (not part of the shipped file): which upstream served which request.
        "  log_format upstream '$request_uri $upstream_addr';",
        `  access_log ${join(dir, 'nginx-access.log')} upstream;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `  ${kind}_temp_path ${temp}/${kind};`,
        ),
        `  include ${join(dir, 'chirp.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const nginxLog = openSync(join(dir, 'nginx.log'), 'a');
    const nginx = spawn(
      need('TEST_NGINX_BINARY'),
      ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'],
      {
        stdio: ['ignore', nginxLog, nginxLog],
      },
    );
    const stopNginx = killer(nginx);
    await waitFor(
      async () => {
        const result = spawnSync('curl', ['-ksf', '-o', '/dev/null', `${publicUrl}/readyz`]);
        return result.status === 0;
      },
      'nginx',
      30_000,
      nginx,
    );
    return stopNginx;
  }

  let stopNginx: () => Promise<void> = async () => undefined;
  if (behindNginx) stopNginx = await startNginx();
  for (const instance of instances)
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${instance.port}/readyz`)).ok,
      `Chirp instance ${instance.name} ready`,
      30_000,
      instance.process,
    );

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => undefined);
  return {
    dir,
    publicUrl,
    livekitPublicUrl,
    instances,
    livekit,
    databaseUrl,
    certificate: cert,
    redisPrefix,
    roomPrefix,
    livekitKeys: keys,
    async servedBy(marker) {
      // nginx writes its access log line as the response goes; allow it a moment.
      for (let i = 0; i < 20; i++) {
        const lines = readFileSync(join(dir, 'nginx-access.log'), 'utf8').split('\n');
        const line = lines.find((entry) => entry.includes(marker));
        if (line) {
          // On failover nginx lists every upstream it tried; the last one answered.
          const answered = line.split(' ').at(-1)!.trim();
          return instances.find((instance) => answered.endsWith(`:${instance.port}`))?.name;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return undefined;
    },
    query: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
      (await pool.query<T>(sql, params)).rows,
    async stop() {
      await stopNginx();
      for (const instance of instances) await instance.kill();
      for (const node of livekit) await node.stop();
      await pool.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${databaseName} with (force)`);
      await cleanup.end();
      if (!process.env.KEEP_MULTI_INSTANCE_LOGS) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The deployment's owner claims it, as a real owner does: with the one-time setup code an instance
 * printed and wrote to its data folder. Only the code of the instance that started last works (each
 * start replaces earlier codes), so the codes of every instance of the stack are tried, this
 * instance's first. `request` is the signed-in owner's page request context.
 */
export async function claimOwnership(
  request: { post(url: string, options: { data: unknown; headers: Record<string, string> }): Promise<{ status(): number }> },
  instance: ChirpInstance,
): Promise<void> {
  const stackDir = dirname(instance.dataDir);
  const dataDirs = [
    instance.dataDir,
    ...readdirSync(stackDir)
      .filter((name) => name.startsWith('data-'))
      .map((name) => join(stackDir, name))
      .filter((dir) => dir !== instance.dataDir),
  ];
  const codes = dataDirs
    .map((dir) => join(dir, 'owner-setup-code'))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8').trim());
  let status = 0;
  for (const code of codes) {
    status = (await request.post('/api/setup/claim', { data: { code }, headers: { origin: instance.url } })).status();
    if (status === 200) return;
  }
  throw new Error(`claiming the deployment failed (${status})`);
}
