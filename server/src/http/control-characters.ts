import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

const NUL = '\u0000';

/** True when any string (or object key) inside `value` contains NUL. Depth-bounded: bodies are small. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes(NUL) || containsNul(item, depth + 1));
}

/**
 * PostgreSQL cannot store NUL in text, so a NUL that slipped past a schema became a 500. The schemas
 * in `protocol/` refuse control characters in every id, name and token; this net refuses NUL in any
 * path parameter, query value or body field of every route before a handler sees it, so no future
 * schema can reopen the 500.
 */
export function registerControlCharacterGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw badRequest('Invalid request: control characters are not allowed');
    }
  });
}
