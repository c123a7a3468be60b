// Compiles the built-in SFU's native addon (server/src/voice/sfu/native/*.c) into
// dist/native/sfu-datagrams.node, with the C compiler and the headers Node ships for addons
// (node_api.h and OpenSSL's, whose symbols Node itself exports: nothing is downloaded or linked).
//
//   node scripts/build-native.mjs             `npm run build`: without a compiler, says so and goes on
//   node scripts/build-native.mjs --required  the unit tests' setup: any failure is an error
//
// Without the addon the SFU does the same work in JavaScript, a few microseconds more per packet.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nativeDir = join(root, 'server/src/voice/sfu/native');
const source = join(nativeDir, 'sfu-datagrams.c');
const sources = [source, join(nativeDir, 'receive-thread.c'), join(nativeDir, 'fan-out.c')];
const output = join(root, 'dist/native/sfu-datagrams.node');
const required = process.argv.includes('--required');

function giveUp(reason) {
  if (required) {
    console.error(`build-native: ${reason}`);
    process.exit(1);
  }
  console.log(`build-native: ${reason}; the built-in SFU encrypts and sends in JavaScript`);
  process.exit(0);
}

// A runtime-only tree (the production image) has the built addon and no source.
if (!existsSync(source)) process.exit(0);
if (process.platform !== 'linux') giveUp(`not built on ${process.platform} (Linux only)`);

const headers = [
  join(dirname(process.execPath), '..', 'include', 'node'),
  '/usr/include/node',
  '/usr/local/include/node',
].find((dir) => existsSync(join(dir, 'node_api.h')) && existsSync(join(dir, 'openssl', 'evp.h')));
if (!headers) giveUp("Node's addon headers (node_api.h, openssl/) were not found");

const compiler = process.env.CC || 'cc';
const partial = `${output}.${process.pid}.tmp`;
mkdirSync(dirname(output), { recursive: true });
const result = spawnSync(
  compiler,
  [
    '-O2',
    '-std=c11',
    '-D_GNU_SOURCE',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-shared',
    '-fPIC',
    '-fvisibility=hidden',
    '-pthread',
    `-I${headers}`,
    '-DNODE_GYP_MODULE_NAME=sfu_datagrams',
    '-o',
    partial,
    ...sources,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
if (result.error || result.status !== 0) {
  rmSync(partial, { force: true });
  giveUp(
    result.error
      ? `no C compiler (${compiler}: ${result.error.message})`
      : `${compiler} failed on ${source}`,
  );
}
renameSync(partial, output);
