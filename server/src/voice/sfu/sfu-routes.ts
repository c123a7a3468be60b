import type { FastifyInstance } from 'fastify';
import { VOICE_SIGNALLING_PATH } from '../../../../protocol/voice-signalling.js';
import type { EmbeddedSfu } from './embedded-sfu.js';

/**
 * Mounts the SFU's signalling socket at `/rtc`. Needs `@fastify/websocket` registered with a
 * `maxPayload` of at least MAX_VOICE_SIGNAL_BYTES: answers grow with one m-line per talker.
 * Identity comes only from the voice token in the first message, so no session cookie is needed.
 */
export function registerSfuRoutes(app: FastifyInstance, sfu: EmbeddedSfu): void {
  app.get(VOICE_SIGNALLING_PATH, { websocket: true }, (socket, request) => {
    sfu.handleSocket(socket, request);
  });
  app.addHook('onClose', (_instance, done) => {
    sfu.close();
    done();
  });
}
