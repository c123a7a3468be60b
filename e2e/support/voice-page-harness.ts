import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import websocket from '@fastify/websocket';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import Fastify, { type FastifyInstance } from 'fastify';
import { build } from 'vite';
import { MAX_VOICE_SIGNAL_BYTES } from '../../protocol/voice-signalling.js';
import {
  createEmbeddedSfu,
  type EmbeddedSfu,
  type EmbeddedSfuOptions,
} from '../../server/src/voice/sfu/embedded-sfu.js';
import { silentSfuLogger } from '../../server/src/voice/sfu/sfu-logger.js';
import { registerSfuRoutes } from '../../server/src/voice/sfu/sfu-routes.js';
import { createVoiceToken, createVoiceTokenVerifier } from '../../server/src/voice/voice-token.js';

/**
 * The built-in SFU and a page that drives it, without the app: a small Fastify server with only
 * the SFU's `/rtc` door and one page whose module is a harness entry bundled by Vite (it imports
 * the real client transport). The SFU's end-to-end test and the latency benches all start it, and
 * differ only in the page's entry and what they do with the pages.
 */
export interface VoicePageHarnessOptions {
  /** The page's script (a file URL), bundled with its imports. */
  entry: URL;
  /** Secret the harness signs voice tokens with and the SFU checks them against. */
  secret: string;
  /** The SFU's own settings (grace period, ICE over TCP …); its token check and logger are set here. */
  sfu?: Omit<EmbeddedSfuOptions, 'verifyToken' | 'logger'>;
  /** More routes, registered beside `/rtc` before the server listens (a test's own door, say). */
  routes?: (app: FastifyInstance, sfu: EmbeddedSfu) => void;
}

export interface VoiceTokenRequest {
  userId: string;
  channelId?: string | number;
  adminMuted?: boolean;
}

export interface OpenPageOptions {
  /** The page is ready once this holds in it (its entry set its global). */
  ready: () => boolean;
  /** Granted to the page's context (the microphone, for the app's own permission checks). */
  permissions?: string[];
  /** Echoes the page's console errors to this process's log, prefixed with the label. */
  logErrorsAs?: string;
  /** Runs on the new context before the page opens (init scripts, bindings: a network relay, say). */
  prepare?: (context: BrowserContext) => Promise<void>;
}

export interface VoicePageHarness {
  sfu: EmbeddedSfu;
  /** The page's address: `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** The WebSocket address of a path on this server (`/rtc` by default). */
  socketUrl(path?: string): string;
  /** A voice token for the user, signed with the harness's secret (channel 1 unless told). */
  token(request: VoiceTokenRequest): Promise<string>;
  /** A fresh browser context on the page, once the page's entry has set itself up. */
  openPage(browser: Browser, options: OpenPageOptions): Promise<Page>;
  close(): Promise<void>;
}

const PAGE_SCRIPT = '/page.js';

/** Bundles the page's entry into one ES module, as a browser loads it. */
async function bundle(entry: URL): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'chirp-voice-page-'));
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        outDir,
        emptyOutDir: true,
        minify: false,
        lib: { entry: fileURLToPath(entry), formats: ['es'], fileName: () => 'page.js' },
      },
    });
    return readFileSync(join(outDir, 'page.js'), 'utf8');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function startVoicePageHarness(
  options: VoicePageHarnessOptions,
): Promise<VoicePageHarness> {
  const script = await bundle(options.entry);
  const sfu = createEmbeddedSfu({
    ...options.sfu,
    verifyToken: createVoiceTokenVerifier({ apiSecret: options.secret }),
    logger: silentSfuLogger,
  });
  const app = Fastify({ logger: false });
  await app.register(websocket, { options: { maxPayload: MAX_VOICE_SIGNAL_BYTES } });
  registerSfuRoutes(app, sfu);
  options.routes?.(app, sfu);
  app.get('/', (_request, reply) =>
    reply
      .type('text/html')
      .send(
        `<!doctype html><title>Voice page harness</title><div id="remote-audio"></div><script type="module" src="${PAGE_SCRIPT}"></script>`,
      ),
  );
  app.get('/favicon.ico', (_request, reply) => reply.code(204).send());
  app.get(PAGE_SCRIPT, (_request, reply) => reply.type('text/javascript').send(script));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    sfu,
    baseUrl,
    socketUrl: (path = '/rtc') => `${baseUrl.replace('http', 'ws')}${path}`,
    token: async ({ userId, channelId = 1, adminMuted = false }) =>
      (
        await createVoiceToken({
          apiSecret: options.secret,
          channelId,
          userId,
          userName: userId,
          adminMuted,
        })
      ).token,
    openPage: async (browser, { ready, permissions, logErrorsAs, prepare }) => {
      const context = await browser.newContext(permissions ? { permissions } : {});
      await prepare?.(context);
      const page = await context.newPage();
      if (logErrorsAs)
        page.on('console', (message) => {
          if (message.type() === 'error') console.log(`[${logErrorsAs}] ${message.text()}`);
        });
      await page.goto(baseUrl);
      await page.waitForFunction(ready);
      return page;
    },
    // The `/rtc` routes close the SFU with the server.
    close: async () => {
      await app.close();
    },
  };
}
