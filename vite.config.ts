import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { PUSH_WORKER_FILE, pushWorkerPlugin } from './scripts/push-worker-plugin';

/**
 * Source maps are written but not published: `scripts/move-private-build-files.mjs` moves them (and
 * the build manifest) out of the served folder into dist/client-private. `SOURCEMAP=public` keeps
 * them next to the scripts, with the `sourceMappingURL` comment, for a debugging deployment.
 */
const publicSourceMaps = process.env.SOURCEMAP === 'public';

export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [
    react(),
    tailwindcss(),
    // Web Push: the generated worker imports the push and notification-tap handling (decision 040).
    pushWorkerPlugin(fileURLToPath(new URL('./client/src/features/notifications/service-worker/push-sw.ts', import.meta.url))),
    VitePWA({
      // A new deploy waits for the user's "Reload" instead of swapping code under a live call.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Chirp — push-to-talk voice',
        short_name: 'Chirp',
        description: 'Push-to-talk voice channels and one-to-one calls for families, friends and teams.',
        theme_color: '#0f766e',
        background_color: '#0b1412',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell opens offline; the API, sign-in and sockets always go to the network.
        navigateFallback: '/index.html',
        // The server's own pages (sign-in, the default Terms and Privacy) are not app routes either.
        navigateFallbackDenylist: [/^\/api\//, /^\/oidc/, /^\/legal\//, /^\/ws/, /^\/rtc/, /^\/healthz/, /^\/readyz/],
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // LiveKit's client is only for LiveKit deployments: fetched when used, never precached.
        globIgnores: ['**/livekit-*.js'],
        // Voice and call code is loaded when first needed; precache it too so it works offline later.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        importScripts: [PUSH_WORKER_FILE],
        sourcemap: publicSourceMaps,
      },
    }),
  ],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: publicSourceMaps ? true : 'hidden',
    // Read by scripts/report-initial-js.mjs to follow what each screen loads.
    manifest: true,
  },
});
