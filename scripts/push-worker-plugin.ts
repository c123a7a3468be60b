import { build, type Plugin } from 'vite';

/** Where the generated service worker finds its push handling (`workbox.importScripts`). */
export const PUSH_WORKER_FILE = 'push-sw.js';

/**
 * Bundles the service worker's push handling (`client/src/features/notifications/service-worker/
 * push-sw.ts`) into one classic script, `push-sw.js` next to `sw.js`: `importScripts` takes no ES
 * modules. Served with `no-cache` like every unhashed file, so a new deploy's worker gets the new one.
 */
export function pushWorkerPlugin(entry: string): Plugin {
  return {
    name: 'chirp-push-worker',
    apply: 'build',
    async generateBundle() {
      const output = await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          write: false,
          minify: true,
          lib: { entry, formats: ['iife'], name: 'chirpPushWorker', fileName: () => PUSH_WORKER_FILE },
          rollupOptions: { output: { inlineDynamicImports: true } },
        },
      });
      const results = Array.isArray(output) ? output : [output];
      for (const result of results) {
        if (!('output' in result)) continue;
        for (const chunk of result.output) {
          if (chunk.type === 'chunk') this.emitFile({ type: 'asset', fileName: PUSH_WORKER_FILE, source: chunk.code });
        }
      }
    },
  };
}
