import type { DestinationStream } from 'pino';
import { serializeError, serializeRequest } from './safe-serializers.js';

/** Secrets and cookies never reach the log. */
const REDACT = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

/** The server's pino options; `stream` lets a test read exactly what production would write. */
export function loggerOptions(level: string, stream?: DestinationStream): object {
  return {
    level,
    redact: REDACT,
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
    ...(stream ? { stream } : {}),
  };
}
