import { hasControlCharacters } from '../../../protocol/text.js';

const HOME = '/';
const MAX_LENGTH = 2048;

/**
 * Where to send the browser after sign-in: a path on this app, or "/". The value is normalised the
 * way a browser will resolve it (dot segments, percent-encoded dots, backslashes) and the *result* is
 * checked: it must resolve to PUBLIC_URL's origin and stay a path a browser cannot read as another
 * host ("//evil.example", "/\evil"). `/.//evil.example/x` normalises to `//evil.example/x` and so
 * falls back to "/".
 */
export function safeReturnTo(value: unknown, publicUrl: URL): string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return HOME;
  if (!value.startsWith('/') || value.includes('\\') || hasControlCharacters(value)) return HOME;
  let resolved: URL;
  try {
    resolved = new URL(value, publicUrl.origin);
  } catch {
    return HOME;
  }
  if (resolved.origin !== publicUrl.origin) return HOME;
  const path = resolved.pathname + resolved.search + resolved.hash;
  if (!isPlainPath(path)) return HOME;
  // What the browser will do with `Location: <path>` from /api/callback must land here too.
  const followed = new URL(path, new URL('/api/callback', publicUrl.origin));
  return followed.origin === publicUrl.origin ? path : HOME;
}

/** One leading slash, and nothing a browser reads as an authority or a scheme. */
const isPlainPath = (path: string) =>
  path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') && !hasControlCharacters(path);
