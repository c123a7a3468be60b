import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * vitest global setup: compiles the built-in SFU's native addon, so its tests and the SFU suites
 * run the native path (as `npm run build` and production do). A failed build fails the run.
 */
export default function setup(): void {
  const script = fileURLToPath(new URL('../../../scripts/build-native.mjs', import.meta.url));
  execFileSync(process.execPath, [script, '--required'], { stdio: 'inherit' });
}
