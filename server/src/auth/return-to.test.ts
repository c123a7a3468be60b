import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.js';

const PUBLIC_URL = new URL('https://chirp.example/');

describe('safeReturnTo', () => {
  it.each([
    ['/settings', '/settings'],
    ['/?channel=4&invite=abc', '/?channel=4&invite=abc'],
    ['/a/../settings', '/settings'],
    ['https://evil.example', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['settings', '/'],
    [undefined, '/'],
    ['/\tx', '/'],
    // Normalising removes the dot segment and leaves two slashes: a host to the browser.
    ['/.//evil.example/x', '/'],
    ['/..//evil.example/x', '/'],
    ['/./..//evil.example', '/'],
    ['/%2e//evil.example/x', '/'],
    ['/%2E%2E//evil.example/x', '/'],
    ['/.%2e//evil.example', '/'],
    ['/%2e%2e/%2e%2e//evil.example', '/'],
    ['/a/..//evil.example', '/'],
    ['/%5cevil.example', '/%5cevil.example'],
    ['/%2f%2fevil.example', '/%2f%2fevil.example'],
  ])('%s → %s', (input, expected) => {
    expect(safeReturnTo(input, PUBLIC_URL)).toBe(expected);
  });

  /** Pieces attackers combine: dots, slashes, encodings, authorities, schemes. */
  const piece = fc.constantFrom(
    '/', '//', '.', '..', '%2e', '%2E', '%2f', '%2F', '%5c', '\\', '@', ':', '?', '#', '%00',
    'evil.example', 'chirp.example', 'http:', 'https:', 'javascript:', 'x', '%', ' ', '\t', '\u3002',
  );
  const hostile = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

  it('always answers a path on PUBLIC_URL that the browser resolves to PUBLIC_URL', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string(), fc.webUrl(), fc.webPath()), (input) => {
        const result = safeReturnTo(input, PUBLIC_URL);
        expect(result.startsWith('/')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(result.includes('\\')).toBe(false);
        const followed = new URL(result, 'https://chirp.example/api/callback?code=x');
        expect(followed.origin).toBe(PUBLIC_URL.origin);
        // Stable: what it answers is itself a safe answer.
        expect(safeReturnTo(result, PUBLIC_URL)).toBe(result);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps every ordinary app path as it is', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const path = `/${segments.join('/')}`;
        expect(safeReturnTo(path, PUBLIC_URL)).toBe(path);
      }),
    );
  });
});
