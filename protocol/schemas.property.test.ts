import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z, ZodError } from 'zod';
import { arbitraryFor, defOf, numberLimits, stringLimits } from './testing/zod-arbitrary.js';

/** Every zod schema every protocol/ module exports, found by walking the folder: a new one is covered. */
const folder = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
const modules = await Promise.all(
  files.map(async (file) => [file, (await import(`./${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>] as const),
);
const SCHEMAS = modules
  .flatMap(([file, exports]) =>
    Object.entries(exports)
      .filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType)
      .map(([name, schema]) => ({ name: `${file} ${name}`, schema })),
  )
  .sort((a, b) => a.name.localeCompare(b.name));

/** Parses like a server handler would: success, or a ZodError — anything else thrown is a bug. */
function parseOnlyThrowsZodError(schema: z.ZodType, value: unknown): boolean {
  try {
    schema.parse(value);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(ZodError);
    return false;
  }
}

/** A value that is wrong in kind for almost anything, and large. */
const garbage = fc.oneof(
  fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true }),
  fc.string({ minLength: 1000, maxLength: 5000 }),
  fc.constantFrom(NaN, Infinity, -0, 2 ** 53, -1, '\u0000', '__proto__', { __proto__: { type: 'x' } }, [], {}),
);

/** Replaces one field of a valid object (or the value itself) with garbage. */
function mutated(schema: z.ZodType) {
  return fc.tuple(arbitraryFor(schema), garbage, fc.nat()).map(([valid, junk, pick]) => {
    if (typeof valid !== 'object' || valid === null || Array.isArray(valid)) return junk;
    const keys = Object.keys(valid);
    if (keys.length === 0) return junk;
    return { ...valid, [keys[pick % keys.length]!]: junk };
  });
}

/** Bounded leaves of an object schema: a path and a value just past its limit. */
function overLimits(schema: z.ZodType, path: string[] = []): { path: string[]; value: unknown }[] {
  const def = defOf(schema);
  if (['optional', 'nullable', 'default'].includes(def.type)) return overLimits(def.innerType!, path);
  if (def.type === 'pipe') return overLimits(def.out!, path);
  if (def.type === 'object') return Object.entries(def.shape ?? {}).flatMap(([key, value]) => overLimits(value, [...path, key]));
  if (def.type === 'string') {
    // Only declared maximums: a regex's own bounds are the regex's business.
    const declared = (def.checks ?? []).some((check) => (check)._zod.def.check === 'max_length');
    if (!declared) return [];
    const { max, format } = stringLimits(def);
    return [{ path, value: format === 'email' ? `${'a'.repeat(max)}@b.example` : 'a'.repeat(max + 1) }];
  }
  if (def.type === 'number') {
    const { int, max, min } = numberLimits(def);
    const cases = [];
    if (max < 1e9) cases.push({ path, value: max + 1 });
    if (min > -1e9) cases.push({ path, value: min - 1 });
    if (int) cases.push({ path, value: Math.max(min, Math.min(max, 1)) + 0.5 });
    return cases;
  }
  return [];
}

const setAt = (value: unknown, path: string[], leaf: unknown): unknown => {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { ...object, [head!]: setAt(object[head!], rest, leaf) };
};

/** Object schemas to probe for limits: each option of a union on its own. */
const objectOptions = (schema: z.ZodType): z.ZodType[] => {
  const def = defOf(schema);
  if (def.type === 'union') return def.options!.flatMap(objectOptions);
  return def.type === 'object' || def.type === 'string' || def.type === 'number' || def.type === 'pipe' ? [schema] : [];
};

describe('every protocol/ schema', () => {
  it('is found (the walk sees the modules)', () => {
    expect(SCHEMAS.length).toBeGreaterThan(40);
    expect(SCHEMAS.map((s) => s.name)).toContain('sockets.ts wsClientMessageSchema');
  });

  describe.each(SCHEMAS)('$name', ({ schema }) => {
    it('accepts every value generated within its limits', () => {
      fc.assert(
        fc.property(arbitraryFor(schema), (value) => {
          const result = schema.safeParse(value);
          if (!result.success) throw new Error(`refused ${JSON.stringify(value)}: ${result.error.message}`);
        }),
        { numRuns: 60 },
      );
    });

    it('refuses garbage and mutated values with a ZodError and nothing else', () => {
      fc.assert(fc.property(fc.oneof(garbage, mutated(schema)), (value) => void parseOnlyThrowsZodError(schema, value)), {
        numRuns: 60,
      });
    });

    it('refuses a value just past each length and number limit', () => {
      for (const option of objectOptions(schema)) {
        const [base] = fc.sample(arbitraryFor(option), { numRuns: 1, seed: 7 });
        for (const { path, value } of overLimits(option)) {
          const probe = setAt(base, path, value);
          expect(parseOnlyThrowsZodError(option, probe), `${path.join('.') || '(value)'} = ${JSON.stringify(value).slice(0, 40)}`).toBe(false);
        }
      }
    });
  });
});
