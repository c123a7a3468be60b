import type { FastifyError } from 'fastify';
import { ZodError } from 'zod';
import { HttpError } from '../http/errors.js';

/**
 * Spec §3: a failed channel creation carries an `error` field. Route-level error handler: it turns the
 * failure into an HttpError with `error` set and rethrows it to the app's one error handler.
 */
export function withErrorField(error: FastifyError | HttpError | ZodError): never {
  if (error instanceof HttpError) {
    throw new HttpError(error.statusCode, error.message, { ...error.body, error: error.message });
  }
  if (error instanceof ZodError) {
    const message = error.issues[0]?.message ?? 'Invalid channel';
    throw new HttpError(400, message, { error: message });
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) throw error;
  throw new HttpError(status, error.message, { error: error.message });
}
