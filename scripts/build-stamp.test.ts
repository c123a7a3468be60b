import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  beginBuild,
  buildDecision,
  endBuild,
  inputsHash,
  outputsPresent,
  readStamp,
} from './build-stamp.mjs';

/** A repository in miniature: sources, a lock file, and a finished build's outputs. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'chirp-stamp-'));
  const files: Record<string, string> = {
    'client/src/App.tsx': 'export const App = 1;',
    'client/src/App.test.tsx': 'test',
    'server/src/main.ts': 'start();',
    'protocol/user.ts': 'export {}',
    'package-lock.json': '{"lockfileVersion":3}',
    'vite.config.ts': 'export default {}',
    'dist/client/index.html': '<div id="root"></div>',
    'dist/server/server/src/main.js': 'start();',
    'node_modules/x/index.js': 'x',
  };
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  return root;
}
const write = (root: string, path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
const decide = (root: string) =>
  buildDecision({ stamp: readStamp(root), inputs: inputsHash(root, {}), outputsPresent: outputsPresent(root) });
const build = (root: string) => {
  beginBuild(root, {});
  endBuild(root, new Date('2026-11-27T08:00:00Z'));
};

describe('npm start builds only when the sources changed', () => {
  it('builds when nothing was ever built, then starts without building', () => {
    const root = checkout();
    expect(decide(root)).toEqual({ build: true, reason: 'no successful build yet' });
    build(root);
    expect(decide(root)).toEqual({
      build: false,
      reason: 'no source changed since the build of 2026-11-27T08:00:00.000Z',
    });
  });

  it('builds again after a source, the lock file or a new file changed', () => {
    for (const change of [
      (root: string) => write(root, 'client/src/App.tsx', 'export const App = 2;'),
      (root: string) => write(root, 'package-lock.json', '{"lockfileVersion":3,"x":1}'),
      (root: string) => write(root, 'server/src/new-feature.ts', 'export {}'),
      (root: string) => rmSync(join(root, 'protocol/user.ts')),
    ]) {
      const root = checkout();
      build(root);
      change(root);
      expect(decide(root)).toEqual({ build: true, reason: 'sources changed since the last build' });
    }
  });

  it('does not rebuild for tests, installed packages or the build output itself', () => {
    const root = checkout();
    build(root);
    write(root, 'client/src/App.test.tsx', 'another test');
    write(root, 'node_modules/x/index.js', 'y');
    write(root, 'dist/client/extra.js', 'z');
    expect(decide(root).build).toBe(false);
  });

  it('a build that failed leaves no stamp, so the next start builds', () => {
    const root = checkout();
    build(root);
    beginBuild(root, {}); // ... and the build stops with an error before its last step
    expect(readStamp(root)).toBeNull();
    expect(decide(root)).toEqual({ build: true, reason: 'no successful build yet' });
  });

  it('builds when the output was removed, or SOURCEMAP asks for another build', () => {
    const root = checkout();
    build(root);
    expect(inputsHash(root, { SOURCEMAP: 'public' })).not.toBe(inputsHash(root, {}));
    rmSync(join(root, 'dist/client/index.html'));
    expect(decide(root)).toEqual({ build: true, reason: 'the build output is incomplete' });
  });
});
