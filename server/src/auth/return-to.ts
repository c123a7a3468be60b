/**
 * Only same-origin paths may be returned to after sign-in: "/settings" yes; "//evil.example",
 * "https://evil.example" or "/\\evil" no. Anything else falls back to "/".
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\\]/.test(value)) return '/';
  try {
    const parsed = new URL(value, 'http://chirp.invalid');
    if (parsed.origin !== 'http://chirp.invalid') return '/';
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return '/';
  }
}
