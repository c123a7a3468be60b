import WebSocket from 'ws';
import type { z } from 'zod';
import { signalClientMessageSchema } from '../../../../protocol/calls.js';
import { wsClientMessageSchema } from '../../../../protocol/sockets.js';
import {
  clientVoiceMessageSchema,
  VOICE_SIGNALLING_VERSION,
} from '../../../../protocol/voice-signalling.js';
import { mutate, type Frame } from './mutate.js';
import { Random } from './random.js';
import { sample, type SampleContext } from './zod-sample.js';

export interface FuzzTarget {
  /** http://host:port of the server under test. */
  baseUrl: string;
  /** Session cookies (`chirp_session=…`) of the fuzzing users; each worker uses one. */
  cookies: string[];
  /** Voice tokens the SFU accepts, so some `/rtc` sockets get past the door. */
  voiceTokens: string[];
  context: SampleContext;
}

export interface FuzzStats {
  frames: number;
  byRoute: Record<string, number>;
  socketsOpened: number;
  closeCodes: Record<number, number>;
  upgradeRefusals: number;
}

type Route = 'ws' | 'webrtc' | 'rtc';
const PATHS: Record<Route, string> = { ws: '/ws', webrtc: '/ws/webrtc', rtc: '/rtc' };
const UNIONS = {
  ws: wsClientMessageSchema,
  webrtc: signalClientMessageSchema,
  rtc: clientVoiceMessageSchema,
};
/** Frames per socket before the fuzzer moves on to a fresh one (below the per-socket burst). */
const FRAMES_PER_SOCKET = 30;

function frameFor(route: Route, random: Random, target: FuzzTarget): Frame {
  const options: readonly z.ZodType[] = UNIONS[route].options;
  const message = sample(random.pick(options), random, target.context) as Record<string, unknown>;
  if (route === 'rtc' && (message.type === 'join' || message.type === 'resume')) {
    message.version = VOICE_SIGNALLING_VERSION;
    if (target.voiceTokens.length && random.chance(0.3))
      message.token = random.pick(target.voiceTokens);
  }
  return mutate(message, random);
}

function open(url: string, headers: Record<string, string>): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', () => resolve(null));
    ws.once('error', () => resolve(null));
  });
}

/**
 * Sends `frames` random and mutated frames, drawn from the protocol unions of `/ws`, `/ws/webrtc`
 * and `/rtc`, over `workers` concurrent connections that are replaced whenever the server closes
 * them (as it does for floods, oversized frames and bad first messages). Deterministic per seed.
 */
export async function fuzzSockets(
  target: FuzzTarget,
  options: { frames: number; seed: number; workers?: number; onProgress?: (sent: number) => void },
): Promise<FuzzStats> {
  const stats: FuzzStats = {
    frames: 0,
    byRoute: { ws: 0, webrtc: 0, rtc: 0 },
    socketsOpened: 0,
    closeCodes: {},
    upgradeRefusals: 0,
  };
  const origin = new URL(target.baseUrl).origin;
  const wsBase = target.baseUrl.replace(/^http/, 'ws');
  const workers = options.workers ?? 8;

  const worker = async (index: number) => {
    const random = new Random(options.seed * 1000 + index);
    const cookie = target.cookies[index % target.cookies.length]!;
    while (stats.frames < options.frames) {
      const route = random.pick<Route>(['ws', 'ws', 'webrtc', 'rtc']);
      const headers: Record<string, string> = { origin };
      if (route !== 'rtc') headers.cookie = cookie;
      const ws = await open(`${wsBase}${PATHS[route]}`, headers);
      if (!ws) {
        stats.upgradeRefusals++;
        continue;
      }
      stats.socketsOpened++;
      const closed = new Promise<void>((resolve) =>
        ws.once('close', (code) => {
          stats.closeCodes[code] = (stats.closeCodes[code] ?? 0) + 1;
          resolve();
        }),
      );
      ws.on('error', () => undefined);
      for (let i = 0; i < FRAMES_PER_SOCKET && stats.frames < options.frames; i++) {
        if (ws.readyState !== WebSocket.OPEN) break;
        const frame = frameFor(route, random, target);
        ws.send('binary' in frame ? frame.binary : frame.text);
        stats.frames++;
        stats.byRoute[route]!++;
        options.onProgress?.(stats.frames);
        // Let the server answer now and then, as interleaved traffic would.
        if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      ws.close(1000);
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
      ws.terminate();
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
  return stats;
}
