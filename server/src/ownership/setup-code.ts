import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';

/** Crockford's base32: no I, L, O or U, so a code read from a log is hard to mistype. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 5;

/** 20 random base32 characters (100 bits), shown as `XXXXX-XXXXX-XXXXX-XXXXX`. */
export function newSetupCode(): string {
  const groups = Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** What a person types may differ in case, spaces and dashes (and O/0, I/L/1 are read as digits). */
export function normaliseSetupCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

/** Only this is stored: the code has 100 random bits, so a fast hash is enough. */
export function hashSetupCode(code: string): string {
  return createHash('sha256').update(normaliseSetupCode(code)).digest('base64url');
}

/** Constant-time comparison of two stored-form hashes. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Like Jenkins' initialAdminPassword: readable by the operator only, removed once used. */
export const setupCodeFile = (dataDir: string) => join(dataDir, 'owner-setup-code');
