import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

/**
 * Runs every `*.bench.ts` under bench/ (or those matching the first argument), one after another;
 * further arguments go to each bench (`npm run bench idle-listener minutes=1`).
 */
function findBenches(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findBenches(path);
    return name.endsWith('.bench.ts') ? [path] : [];
  });
}

const filter = process.argv[2];
const benches = findBenches('bench').filter((file) => !filter || file.includes(filter)).sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${relative('.', file)}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...process.argv.slice(3)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
console.log(`\n${benches.length - failed} benchmarks ran, ${failed} failed`);
process.exit(failed ? 1 : 0);
