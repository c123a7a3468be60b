import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { useScratchTmpdir } from './server/src/testing/scratch-tmpdir';

// Every temporary folder of the run goes in one scratch folder, removed at the end.
useScratchTmpdir('chirp-vitest');

export default defineConfig({
  plugins: [react()],
  test: {
    globalSetup: ['server/src/testing/scratch-tmpdir-teardown.ts'],
    // Two files at once: most integration files wait on sockets, timers and databases rather than a
    // core. vitest's default (one fewer than the cores) ran one file at a time on a two-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'protocol/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          // One migrated PGlite folder and PostgreSQL database per run, copied for each test database.
          globalSetup: [
            'server/src/testing/database-templates-setup.ts',
            'server/src/testing/native-build-setup.ts',
          ],
          // A file whose main thread never comes back fails with its stacks instead of holding the run.
          setupFiles: ['server/src/testing/blocked-thread-watchdog.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['client/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
