import type { Page } from '@playwright/test';
import { RoomServiceClient } from 'livekit-server-sdk';
import { createVoiceToken } from '../../server/src/voice/voice-token.js';

/** What a bench page that joins LiveKit exposes (both voice benches' harness pages do). */
interface LivekitBenchPage {
  bench: { livekitConnect(url: string, token: string, talker: boolean): Promise<void> };
}

/**
 * Makes the LiveKit room as Chirp does (the node runs as shipped, with auto_create off, so a join
 * never makes one) and joins the talker, who publishes, and the listener with Chirp's own tokens.
 */
export async function joinLivekitRoom(options: {
  url: string;
  keys: { apiKey: string; apiSecret: string };
  roomName: string;
  talker: Page;
  listener: Page;
}): Promise<void> {
  const { url, keys, roomName } = options;
  await new RoomServiceClient(url.replace('ws', 'http'), keys.apiKey, keys.apiSecret).createRoom({
    name: roomName,
  });
  const token = async (userId: string) =>
    (
      await createVoiceToken({
        ...keys,
        channelId: 'bench',
        roomName,
        userId,
        userName: userId,
        adminMuted: false,
      })
    ).token;
  for (const [page, talker] of [
    [options.talker, true],
    [options.listener, false],
  ] as const) {
    await page.evaluate(
      ([u, t, isTalker]) =>
        (globalThis as unknown as LivekitBenchPage).bench.livekitConnect(u, t, isTalker),
      [url, await token(talker ? 'talker' : 'listener'), talker] as const,
    );
  }
}
