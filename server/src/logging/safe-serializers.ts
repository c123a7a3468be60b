import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are credentials or personal data: OpenID codes and states, ID
 * tokens, invite tokens, PKCE values, passwords. Their values never reach the log (issue 12 §11).
 */
const SECRET_PARAMS = new Set([
  'code',
  'state',
  'nonce',
  'id_token_hint',
  'id_token',
  'access_token',
  'refresh_token',
  'token',
  'invite',
  'code_verifier',
  'code_challenge',
  'client_secret',
  'password',
  'email',
  'login_hint',
]);

/** The URL as logged: secret query values replaced, so it still shows which parameters came. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (!SECRET_PARAMS.has(name.toLowerCase())) continue;
    params.set(name, 'redacted');
    changed = true;
  }
  return changed ? `${url.slice(0, query)}?${params.toString()}` : url;
}

/** Fastify's request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.headers?.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Fields of database errors that carry the failed statement's values: drizzle's `params`, and
 * PostgreSQL's `detail` ("Key (email)=(…) already exists", "Failing row contains (…)") and friends.
 */
const VALUE_FIELDS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery']);
const MAX_DEPTH = 4;

/** Drizzle writes the parameters into the message itself: "Failed query: …\nparams: …". */
const withoutParams = (message: string) => message.replace(/\nparams:[\s\S]*$/, '');

/**
 * The error serializer: type, message, stack, code and the like, and the cause chain — with every
 * value of a failed query left out, since those are users' e-mails and password hashes.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const source = error as Record<string, unknown> & { message?: unknown; stack?: unknown };
  const message = typeof source.message === 'string' ? source.message : undefined;
  const safeMessage = message === undefined ? undefined : withoutParams(message);
  const out: Record<string, unknown> = {
    type: (error as { constructor?: { name?: string } }).constructor?.name ?? 'Object',
  };
  if (safeMessage !== undefined) out.message = safeMessage;
  if (typeof source.stack === 'string') {
    out.stack = message ? source.stack.replace(message, safeMessage ?? '') : source.stack;
  }
  for (const [key, value] of Object.entries(source)) {
    if (VALUE_FIELDS.has(key) || key === 'cause' || key === 'message' || key === 'stack') continue;
    if (typeof value === 'function') continue;
    out[key] =
      typeof value === 'object' && value !== null
        ? depth < MAX_DEPTH
          ? serializeError(value, depth + 1)
          : '[object]'
        : value;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && depth < MAX_DEPTH) out.cause = serializeError(cause, depth + 1);
  return out;
}
