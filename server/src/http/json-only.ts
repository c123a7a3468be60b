import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';
import { isApiRoute, matchedRoute } from './route-access.js';

const hasBody = (headers: Record<string, string | string[] | undefined>) =>
  (headers['content-length'] !== undefined && headers['content-length'] !== '0') ||
  headers['transfer-encoding'] !== undefined;

/** application/json, or a JSON-based type such as LiveKit's application/webhook+json (RFC 6839). */
const isJsonType = (type: string) => type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);

/**
 * The API reads JSON only. A browser can send a form (urlencoded, multipart, text/plain) to another
 * site without asking first, but not JSON; refusing every other body type on `/api` closes that road
 * for cross-site forgery even if an origin check were ever missed. Form bodies are parsed only inside
 * the built-in provider's scope, where its sign-in form needs them.
 */
export function registerJsonOnlyApi(app: FastifyInstance): void {
  // Fastify parses text/plain by default; nothing of ours sends it.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    if (!isApiRoute(matchedRoute(request)) || !hasBody(request.headers)) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!isJsonType(type)) throw new HttpError(415, 'Send JSON (Content-Type: application/json)');
  });
}
