import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';

// Most integration files spend their time waiting on sockets, timers and databases, not on a core:
// run at least four at once (vitest's default is one fewer than the cores, a single file on a
// two-core CI machine, which took 490 s where four take 270 s).
const maxWorkers = Math.max(4, availableParallelism() - 1);

export default defineConfig({
  plugins: [react()],
  test: {
    maxWorkers,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'protocol/**/*.test.ts', 'bench/**/*.test.ts'],
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
