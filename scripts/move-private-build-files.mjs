// Moves what the build writes only for us — source maps and the Vite manifest — out of the folder
// the server publishes (dist/client) into dist/client-private, so visitors cannot fetch the app's
// sources. `SOURCEMAP=public npm run build` leaves the maps published for a debugging deployment.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const published = join(process.cwd(), 'dist', 'client');
const hidden = join(process.cwd(), 'dist', 'client-private');
const keepMapsPublic = process.env.SOURCEMAP === 'public';

rmSync(hidden, { recursive: true, force: true });

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let moved = 0;
for (const path of [...files(published)]) {
  const isManifest = relative(published, path) === join('.vite', 'manifest.json');
  if (!isManifest && (keepMapsPublic || !path.endsWith('.map'))) continue;
  const target = join(hidden, relative(published, path));
  mkdirSync(dirname(target), { recursive: true });
  renameSync(path, target);
  moved++;
}
const viteDir = join(published, '.vite');
if (existsSync(viteDir) && readdirSync(viteDir).length === 0) rmSync(viteDir, { recursive: true });
console.log(`Moved ${moved} private build file(s) to dist/client-private`);
