/** An error that becomes an HTTP response: thrown by guards so route handlers stay linear. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra fields for the JSON body (e.g. `{error}` on channel creation failures). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message = 'Invalid request') => new HttpError(400, message);
export const unauthorized = () => new HttpError(401, 'Unauthorized');
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message = 'Already exists') => new HttpError(409, message);
export const tooManyRequests = (message = 'Too many requests') => new HttpError(429, message);
