// Prints the JavaScript two first visits download before their screen renders, gzipped, against
// their budgets, and fails the build when one is over:
// - the landing page (signed out): the entry script and what it imports;
// - the signed-in main screen: that, plus the screen's lazy chunk, the signed-in session, the call
//   screens and the shared chunk the entry imports on demand (the user schema the auth answer is
//   checked with, and zod) — all fetched on a signed-in first visit before the screen renders.
// Chunks loaded later on demand (Settings, Upgrade, the toast stack, LiveKit) are not counted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// The main screen's budget went from 150 to 155 KB when push reached people with Chirp closed: the
// visibility report (whether this device is present), the conversation lookup that tells a direct
// conversation from a channel, and the tap-target check cost 1.3 KB there; everything else they
// brought (Settings → Notifications, the conversation bar, the tap handler) loads on demand.
// Then to 165 KB (and the landing's to 105) for tailwind-merge, the specification's class-name
// merge (a caller's class replaces a component's for the same property): about 6.5 KB on both.
// Then to 170 KB for what the main screen itself must show at once since the interface work: who
// is heard and the reconnecting member list, the missed counts on Contacts and Channels, the idle
// notice and the call pill's timer (the talk button, member menu and tooltips load on demand).
// Then to 172 KB for Family SOS (decision 050), which every member of an SOS channel needs at once
// on any screen: the SOS button's place, the full-volume rule of an SOS voice and the microphone it
// opens, and the lazy start of the SOS runtime; the hold, countdown, alert screens and settings load
// on demand, but splitting them off re-chunks shared code the main screen loads (about 1 KB).
const BUDGETS_KB = { landing: 105, main: 172 };
/** Manifest keys are relative to the Vite root, `client/`. */
const MAIN_SCREEN_ENTRIES = [
  'src/features/main/MainScreen.tsx',
  'src/features/session/signed-in-session.ts',
  'src/features/calls/CallOverlayGate.tsx',
];

const root = join(process.cwd(), 'dist', 'client');
const manifestPath = join(process.cwd(), 'dist', 'client-private', '.vite', 'manifest.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

/** The chunk files `key` loads before running: itself and its static imports, transitively. */
function closure(key, into = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`report-initial-js: ${key} is not in the build manifest`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, into);
  return into;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const landing = closure(entryKey);
const main = new Set(landing);
for (const source of MAIN_SCREEN_ENTRIES) closure(source, main);
// Shared chunks (keys starting with "_") the entry imports on demand: the auth user's schema.
for (const key of manifest[entryKey].dynamicImports ?? []) if (key.startsWith('_')) closure(key, main);

const kb = (files) => [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(root, file))).length, 0) / 1024;

let over = false;
for (const [name, files] of [['landing', landing], ['main', main]]) {
  const size = kb(files);
  const budget = BUDGETS_KB[name];
  console.log(
    `Initial JavaScript, ${name === 'landing' ? 'landing page' : 'signed-in main screen'}: ` +
      `${size.toFixed(1)} KB gzip in ${files.size} file(s) (budget ${budget} KB)`,
  );
  if (size > budget) over = true;
}
if (over) {
  console.error('Initial JavaScript is over budget: load more of the app on demand.');
  process.exit(1);
}
