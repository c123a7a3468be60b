import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Person } from '../accounts';
import { signInAndOpen, type SignedInUser } from '../fixtures';
import { installMicrophone } from '../voice-audio';
import type { ImpairmentRelay } from './impairment-relay';
import { routeThroughRelay } from './relay-routing';

/**
 * A phone that changes network in the middle of a conversation, for the network-switch test and
 * bench: a signed-in person (steady tone as microphone) whose WebRTC goes through a relay link, the
 * switch itself, and a watcher in the listener's page that dates when the voice is heard again.
 */

/** What the page saw of its signalling: messages sent and received on the voice socket (`/rtc`). */
export interface SignallingLog {
  sent: string[];
  received: string[];
}

/** Opens the app signed in as `person`, its WebRTC routed through `link`, logging `/rtc` frames. */
export async function openRouted(
  browser: Browser,
  person: Person,
  relay: ImpairmentRelay,
  link: string,
  options: {
    baseURL?: string;
    prepare?: (context: BrowserContext) => Promise<void>;
    /** False: the page's WebRTC goes direct (a listener on a steady network). */
    routed?: boolean;
  } = {},
): Promise<SignedInUser & { signalling: SignallingLog }> {
  const { baseURL, prepare, routed = true } = options;
  const context = await browser.newContext({
    permissions: ['microphone'],
    ...(baseURL ? { baseURL } : {}),
  });
  if (routed) await routeThroughRelay(context, relay, link);
  await context.addInitScript(installMicrophone, 'tone' as const);
  await prepare?.(context);
  const page = await context.newPage();
  const signalling = logSignalling(page);
  const socket = page.waitForEvent('websocket', { predicate: (ws) => /\/ws\?/.test(ws.url()) });
  await signInAndOpen(page, person);
  await socket;
  return { person, context, page, signalling };
}

/** Records the types of the messages of every `/rtc` socket the page opens. */
export function logSignalling(page: Page): SignallingLog {
  const log: SignallingLog = { sent: [], received: [] };
  const typeOf = (payload: string | Buffer): string => {
    try {
      return String((JSON.parse(payload.toString()) as { type?: unknown }).type);
    } catch {
      return 'unparsed';
    }
  };
  page.on('websocket', (socket) => {
    if (!new URL(socket.url()).pathname.endsWith('/rtc')) return;
    socket.on('framesent', ({ payload }) => log.sent.push(typeOf(payload)));
    socket.on('framereceived', ({ payload }) => log.received.push(typeOf(payload)));
  });
  return log;
}

/**
 * The network change: the browser loses its network (its `offline` event), the relay link moves so
 * that the old path drops everything from now on, and the new network comes up (`online`). Returns
 * the wall-clock time at which the new path was usable. The browser's WebRTC is not touched by the
 * offline emulation; only the relay decides which path carries packets.
 */
export async function switchNetwork(
  context: BrowserContext,
  relay: ImpairmentRelay,
  link: string,
  offlineForMs = 200,
): Promise<number> {
  await context.setOffline(true);
  relay.move(link);
  await new Promise((resolve) => setTimeout(resolve, offlineForMs));
  const usable = Date.now();
  await context.setOffline(false);
  return usable;
}

/** Which remote audio a watcher listens to: a channel member's elements, or a call's element. */
export type Ear = { channelMember: string } | { call: true };

/**
 * Starts a watcher in the listener's page that dates (wall clock, read every 5 ms in the page) the
 * first moment the voice is heard again after at least `quietMs` below `audible` (the dead path's
 * gap; a quick recovery leaves only a short one, so the default asks for a few frames). Call it while the
 * voice is heard; then break the path; `heardAgainAt(page)` answers the date, or null until then.
 */
export async function watchReturn(
  listener: Page,
  ear: Ear,
  audible: number,
  quietMs = 50,
): Promise<void> {
  await listener.evaluate(
    ([selector, threshold, quiet]) => {
      const holder = window as unknown as {
        heardAgainAt?: number | null;
        returnTimer?: ReturnType<typeof setInterval>;
        returnEar?: AudioContext;
      };
      clearInterval(holder.returnTimer);
      holder.heardAgainAt = null;
      const context = (holder.returnEar ??= new AudioContext());
      const analysers = new Map<MediaStream, AnalyserNode>();
      let quietSince: number | undefined;
      let wasQuiet = false;
      holder.returnTimer = setInterval(() => {
        let level = 0;
        for (const element of document.querySelectorAll<HTMLAudioElement>(selector)) {
          if (!(element.srcObject instanceof MediaStream)) continue;
          let analyser = analysers.get(element.srcObject);
          if (!analyser) {
            analyser = context.createAnalyser();
            analyser.fftSize = 256;
            context.createMediaStreamSource(element.srcObject).connect(analyser);
            analysers.set(element.srcObject, analyser);
          }
          const samples = new Float32Array(analyser.fftSize);
          analyser.getFloatTimeDomainData(samples);
          level = Math.max(
            level,
            Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length),
          );
        }
        const now = Date.now();
        if (level < threshold) {
          quietSince ??= now;
          if (now - quietSince >= quiet) wasQuiet = true;
          return;
        }
        quietSince = undefined;
        if (wasQuiet) {
          holder.heardAgainAt = now;
          clearInterval(holder.returnTimer);
        }
      }, 5);
    },
    [
      'call' in ear
        ? 'audio[data-call-remote-audio]'
        : `#remote-audio audio[data-user-id="${ear.channelMember}"]`,
      audible,
      quietMs,
    ] as const,
  );
}

export function heardAgainAt(listener: Page): Promise<number | null> {
  return listener.evaluate(
    () => (window as unknown as { heardAgainAt?: number | null }).heardAgainAt ?? null,
  );
}
