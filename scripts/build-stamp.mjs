// `npm start` builds only when a build input changed since the last successful build.
//
//   node scripts/build-stamp.mjs begin    first step of `npm run build`: removes the stamp, notes the inputs
//   node scripts/build-stamp.mjs end      last step of `npm run build`: the build succeeded, stamp it
//   node scripts/build-stamp.mjs ensure   `npm start`: runs `npm run build` unless the stamp matches
//
// The stamp (dist/build-stamp.json) holds a hash of every build input — client/, server/, protocol/,
// the build's own scripts, package.json, package-lock.json, the Vite and TypeScript configurations,
// and SOURCEMAP — taken when the build began, so an edit made during a build triggers the next one.
// A failed build never reaches `end`, so it leaves no stamp and the next start builds again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads, relative to the repository root (folders are read whole). */
export const BUILD_INPUTS = [
  'client',
  'server',
  'protocol',
  'scripts/build-stamp.mjs',
  'scripts/build-native.mjs',
  'scripts/move-private-build-files.mjs',
  'scripts/push-worker-plugin.ts',
  'scripts/report-initial-js.mjs',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'tsconfig.base.json',
  'tsconfig.json',
  'tsconfig.server.json',
];

/** What a build leaves that the server needs to start. */
export const BUILD_OUTPUTS = ['dist/client/index.html', 'dist/server/server/src/main.js'];

export const STAMP_FILE = 'dist/build-stamp.json';
const PENDING_FILE = 'dist/.build-inputs';

/** Never part of the build: tests, their helpers' data, notes, and generated folders. */
const isIgnored = (name) =>
  name === 'node_modules' || name === 'dist' || name === 'dev-dist' || name.startsWith('.') ||
  /\.test\.tsx?$/.test(name) || name.endsWith('.md');

function filesUnder(root, path, found) {
  const full = join(root, path);
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (isIgnored(entry.name)) continue;
    const child = path === '' ? entry.name : `${path}/${entry.name}`;
    if (entry.isDirectory()) filesUnder(root, child, found);
    else if (entry.isFile()) found.push(child);
  }
}

/** One hash over every input file's path and content (and the SOURCEMAP setting), in a fixed order. */
export function inputsHash(root, env = process.env) {
  const files = [];
  for (const input of BUILD_INPUTS) {
    const full = join(root, input);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) filesUnder(root, input, files);
    else files.push(input);
  }
  const hash = createHash('sha256');
  hash.update(`SOURCEMAP=${env.SOURCEMAP ?? ''}\0`);
  for (const file of files.sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The stamp of the last successful build, or null (never built, or the last build failed). */
export function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP_FILE), 'utf8'));
    return typeof stamp?.inputs === 'string' && typeof stamp?.builtAt === 'string' ? stamp : null;
  } catch {
    return null;
  }
}

/**
 * Whether `npm start` must build first, and why (the reason is printed).
 * @param {{ stamp: { inputs: string, builtAt: string } | null, inputs: string, outputsPresent: boolean }} state
 * @returns {{ build: boolean, reason: string }}
 */
export function buildDecision({ stamp, inputs, outputsPresent }) {
  if (!stamp) return { build: true, reason: 'no successful build yet' };
  if (!outputsPresent) return { build: true, reason: 'the build output is incomplete' };
  if (stamp.inputs !== inputs) return { build: true, reason: 'sources changed since the last build' };
  return { build: false, reason: `no source changed since the build of ${stamp.builtAt}` };
}

export const outputsPresent = (root) => BUILD_OUTPUTS.every((file) => existsSync(join(root, file)));

/** Start of a build: no stamp until it ends well; the inputs as they are now. */
export function beginBuild(root, env = process.env) {
  rmSync(join(root, STAMP_FILE), { force: true });
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, PENDING_FILE), inputsHash(root, env));
}

/** End of a successful build: the inputs it began with become the stamp. */
export function endBuild(root, now = new Date()) {
  const pending = join(root, PENDING_FILE);
  if (!existsSync(pending)) throw new Error(`${relative(root, pending)} is missing: run the whole "npm run build"`);
  const stamp = { inputs: readFileSync(pending, 'utf8').trim(), builtAt: now.toISOString() };
  writeFileSync(join(root, `${STAMP_FILE}.tmp`), `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(join(root, `${STAMP_FILE}.tmp`), join(root, STAMP_FILE));
  rmSync(pending, { force: true });
}

function ensureBuilt(root) {
  const decision = buildDecision({
    stamp: readStamp(root),
    inputs: inputsHash(root),
    outputsPresent: outputsPresent(root),
  });
  if (!decision.build) {
    console.log(`Build is up to date (${decision.reason}); starting. "npm run build" rebuilds anyway.`);
    return 0;
  }
  console.log(`Building first (${decision.reason}); this takes a minute or two.`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status ?? 1;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const command = process.argv[2];
  if (command === 'begin') beginBuild(root);
  else if (command === 'end') endBuild(root);
  else if (command === 'ensure') process.exitCode = ensureBuilt(root);
  else {
    console.error('usage: node scripts/build-stamp.mjs begin|end|ensure');
    process.exitCode = 2;
  }
}
