import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const REPO_ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/server/') ? '../../../../../' : '../../../', import.meta.url));

const isApiPath = (url: string) => /^\/(api|oidc|ws|rtc)(\/|$|\?)/.test(url);

/** `/settings`, `/` or `/x/y?z=1`: an address of the app, not a file (no extension in its last segment). */
const isAppAddress = (url: string) => !/\.[^/]*$/.test(url.split(/[?#]/)[0] ?? url);

/**
 * Whether an unmatched request gets the app's page: a GET or HEAD outside the API that is an app
 * address (whatever it accepts: curl sends `*\/*`, uptime monitors often nothing) or that asks for
 * HTML. A missing file (`/assets/old-chunk.js`) stays a 404, so a stale script never runs HTML.
 */
export function answersWithApp(method: string, url: string, accept: string | undefined): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || isApiPath(url)) return false;
  return isAppAddress(url) || (accept?.includes('text/html') ?? false);
}

/**
 * Serves the React app: the production build from dist/client, or — with `npm run dev` — Vite in
 * middleware mode with hot reload. Unknown non-API paths get index.html so client routes work.
 */
export async function registerClientAssets(
  app: FastifyInstance,
  dev: boolean,
  root = join(REPO_ROOT, 'dist', 'client'),
): Promise<void> {
  if (dev) return registerViteDevServer(app);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The client is not built (${indexFile} missing): run "npm run build" or "npm start".`);
  }
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // Hashed build assets never change; everything else (sw.js, manifest, icons) is revalidated.
    setHeaders: (reply, path) => {
      const immutable = path.startsWith(join(root, 'assets') + sep);
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const indexHtml = readFileSync(indexFile, 'utf8');
  app.setNotFoundHandler((request, reply) => {
    if (!answersWithApp(request.method, request.url, request.headers.accept)) {
      return reply.status(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}

async function registerViteDevServer(app: FastifyInstance): Promise<void> {
  const { createServer } = await import('vite');
  const middie = await import('@fastify/middie');
  await app.register(middie.default);
  const vite = await createServer({
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: { server: app.server } },
    appType: 'custom',
  });
  app.use((req, res, next) => {
    if (isApiPath(req.url ?? '')) return next();
    vite.middlewares(req, res, next);
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' || isApiPath(request.url)) {
      return reply.status(404).send({ message: `Not found: ${request.method} ${request.url}` });
    }
    const template = readFileSync(join(REPO_ROOT, 'client', 'index.html'), 'utf8');
    const html = await vite.transformIndexHtml(request.url, template);
    return reply.type('text/html; charset=utf-8').send(html);
  });
  app.addHook('onClose', async () => vite.close());
}
