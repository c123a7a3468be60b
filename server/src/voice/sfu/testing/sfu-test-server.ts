import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { RtpHeader, RtpPacket } from 'werift';
import {
  MAX_VOICE_SIGNAL_BYTES,
  VOICE_SIGNALLING_PATH,
} from '../../../../../protocol/voice-signalling.js';
import { createVoiceToken, createVoiceTokenVerifier } from '../../voice-token.js';
import { createEmbeddedSfu, type EmbeddedSfu, type EmbeddedSfuOptions } from '../embedded-sfu.js';
import { silentSfuLogger } from '../sfu-logger.js';
import { registerSfuRoutes } from '../sfu-routes.js';

export const TEST_VOICE_SECRET = 'test-voice-secret-that-is-long-enough-for-hs256';

export interface SfuTestServer {
  app: FastifyInstance;
  sfu: EmbeddedSfu;
  url: string;
  token(
    userId: string,
    channelId?: string | number,
    options?: { adminMuted?: boolean; ttl?: string | number },
  ): Promise<string>;
  close(): Promise<void>;
}

/** A Fastify server with only the SFU mounted, as the app will mount it, on a random port. */
export async function startSfuTestServer(
  overrides: Partial<EmbeddedSfuOptions> = {},
): Promise<SfuTestServer> {
  const sfu = createEmbeddedSfu({
    verifyToken: createVoiceTokenVerifier({
      apiSecret: TEST_VOICE_SECRET,
      clockToleranceSeconds: 0,
    }),
    logger: silentSfuLogger,
    iceServers: [],
    ...overrides,
  });
  const app = Fastify({ logger: false });
  await app.register(websocket, { options: { maxPayload: MAX_VOICE_SIGNAL_BYTES } });
  registerSfuRoutes(app, sfu);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    sfu,
    url: `ws://127.0.0.1:${port}${VOICE_SIGNALLING_PATH}`,
    async token(userId, channelId = 1, options = {}) {
      const created = await createVoiceToken({
        apiSecret: TEST_VOICE_SECRET,
        channelId,
        userId,
        userName: `User ${userId}`,
        adminMuted: options.adminMuted ?? false,
        ttl: options.ttl,
      });
      return created.token;
    },
    close: () => app.close(),
  };
}

/** Builds 20 ms Opus-shaped RTP packets; the SFU never decodes them, only their size matters. */
export function opusPacketFactory(
  ssrc = 0x1234_5678,
): (payloadBytes?: number, marker?: number) => RtpPacket {
  let sequenceNumber = 1000;
  let timestamp = 96_000;
  return (payloadBytes = 80, marker = 0) => {
    const payload = Buffer.alloc(payloadBytes, 0xab);
    // A real first byte (the TOC of one 20 ms CELT frame), so a recording knows each packet's length.
    if (payloadBytes >= 1) payload[0] = 0xf8;
    if (payloadBytes >= 5) payload.writeUInt32BE(marker >>> 0, 1);
    const packet = new RtpPacket(
      new RtpHeader({ payloadType: 111, sequenceNumber, timestamp, ssrc }),
      payload,
    );
    sequenceNumber = (sequenceNumber + 1) & 0xffff;
    timestamp = (timestamp + 960) >>> 0;
    return packet;
  };
}
