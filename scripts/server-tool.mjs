// Runs one of the server's command-line tools (admin, backup): from source with tsx in a development
// checkout, from the built dist/ tree where dev dependencies are absent (production, Docker).
//   node scripts/server-tool.mjs <path under server/src, without extension> [args...]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  console.error('usage: node scripts/server-tool.mjs <tool> [args...]');
  process.exit(2);
}
const source = `server/src/${tool}.ts`;
const built = `dist/server/server/src/${tool}.js`;
let tsx;
try {
  tsx = createRequire(import.meta.url).resolve('tsx');
} catch {
  tsx = undefined;
}
const command = tsx && existsSync(source) ? ['--import', 'tsx', source] : [built];
if (!existsSync(command.at(-1))) {
  console.error(`${built} is missing: run "npm run build" first.`);
  process.exit(1);
}
const result = spawnSync(process.execPath, [...command, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
