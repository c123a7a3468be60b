import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/database-unavailable.js';
import { HttpError } from './errors.js';

/**
 * The one place errors become responses. Users see a short message; the log keeps the cause.
 * Validation failures are 400 and nothing was written (handlers validate before touching data).
 * A database that cannot be reached is 503 with a message (not a bare 500).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      return reply.status(error.statusCode).send({ message: error.message, ...error.body });
    }
    if (error instanceof ZodError) {
      request.log.info({ issues: error.issues }, 'invalid input');
      const first = error.issues[0];
      const where = first?.path.length ? `${first.path.join('.')}: ` : '';
      return reply
        .status(400)
        .send({ message: `Invalid request: ${where}${first?.message ?? 'bad input'}` });
    }
    if (isDatabaseUnavailable(error)) {
      // Not the caller's fault nor a bug: a 503 they may retry, and a warning without the query.
      request.log.warn(
        { code: (error as { code?: unknown }).code, message: error.message },
        'database unavailable',
      );
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Internal server error' });
    }
    request.log.info({ err: error }, 'request refused');
    return reply.status(status).send({ message: error.message });
  });
}

/** For a server that does not serve the client (API-only tests): every unknown path is a JSON 404. */
export function registerJsonNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    return reply
      .status(404)
      .send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
  });
}
