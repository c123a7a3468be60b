// Browser tests use Debian's Chromium (never a downloaded browser build). Finds it, installs it when
// running as root, or stops with the one command to run.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(`Chromium not found at ${path}. Install it with: sudo apt-get install -y chromium`);
  process.exit(1);
}
console.log('Installing Debian chromium for the browser tests…');
execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
  stdio: 'inherit',
  shell: '/bin/bash',
});
if (!existsSync(path)) {
  console.error(`Chromium still missing at ${path} after installing; set CHROMIUM_PATH.`);
  process.exit(1);
}
