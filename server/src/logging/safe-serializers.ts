import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are credentials or personal data: OpenID codes and states, ID
 * tokens, invite tokens, PKCE values, passwords. Their values never reach the log.
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

const REDACTED = 'redacted';
/** A URL inside a URL inside a URL...: past this depth a value is hidden whole. */
const MAX_NESTING = 4;
/** `/invite/<token>`, wherever it appears (not the API's own `/api/invite/generate|accept`). */
const INVITE_PATH = /(^|\/)invite\/(?!(?:generate|accept)(?:$|[/?#]))[^/?#]+/gi;

/**
 * The URL as logged: secret query values replaced, so it still shows which parameters came. The
 * other values are read as URLs too — a `returnTo` carries a whole path with its own query string
 * (`/?channel=7&invite=…`, `/api/callback?code=…`), possibly percent-encoded once more — and their
 * secrets are replaced the same way, as is the token of an `/invite/<token>` path.
 */
export function redactUrl(url: string): string {
  return redactAt(url, 0);
}

function redactAt(url: string, depth: number): string {
  if (depth > MAX_NESTING) return REDACTED;
  const hashAt = url.indexOf('#');
  // A fragment never reaches a server on its own; one inside a returnTo may hold anything.
  const fragment = hashAt < 0 ? '' : url.length > hashAt + 1 ? `#${REDACTED}` : '#';
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const safePath = path.replace(INVITE_PATH, `$1invite/${REDACTED}`);
  if (queryAt < 0) return safePath + fragment;
  const query = redactQuery(beforeHash.slice(queryAt + 1), depth);
  return `${safePath}?${query}${fragment}`;
}

function redactQuery(query: string, depth: number): string {
  let changed = false;
  const entries = [...new URLSearchParams(query)].map(([name, value]): [string, string] => {
    const safe = SECRET_PARAMS.has(name.toLowerCase()) ? REDACTED : redactNested(value, depth + 1);
    if (safe !== value) changed = true;
    return [name, safe];
  });
  return changed ? new URLSearchParams(entries).toString() : query;
}

/** A parameter's value, read as a path or query string (decoded again while it stays encoded). */
function redactNested(value: string, depth: number): string {
  if (depth > MAX_NESTING) return REDACTED;
  let decoded = value;
  for (let i = 0; i < MAX_NESTING && /%[0-9a-f]{2}/i.test(decoded); i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  // `channel=7&invite=…` with no "?" is a query string of its own.
  const bareQuery = decoded.includes('=') && !/^\/|[?#]/.test(decoded);
  const safe = bareQuery ? redactQuery(decoded, depth) : redactAt(decoded, depth);
  return safe === decoded ? value : safe;
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
