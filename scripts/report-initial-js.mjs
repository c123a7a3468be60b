// Prints the JavaScript a first visit downloads before anything renders (the entry script and the
// modules it preloads), gzipped, against the 200 KB budget; fails the build when over it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 200;
const root = join(process.cwd(), 'dist', 'client');
const html = readFileSync(join(root, 'index.html'), 'utf8');
const files = new Set();
for (const match of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) files.add(match[1]);
for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) files.add(match[1]);

let total = 0;
for (const file of files) total += gzipSync(readFileSync(join(root, file))).length;
const kb = total / 1024;
console.log(`Initial JavaScript: ${kb.toFixed(1)} KB gzip in ${files.size} file(s) (budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error('Initial JavaScript is over budget: load more of the app on demand.');
  process.exit(1);
}
