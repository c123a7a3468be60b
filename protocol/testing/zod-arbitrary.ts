import fc from 'fast-check';
import type { z } from 'zod';

/** The parts of zod 4's internal definition this generator reads (zod keeps them on `_zod.def`). */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  format?: string;
  pattern?: RegExp;
  /** `z.url({ protocol })`: the schemes a URL may have. */
  protocol?: RegExp;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, string | number>;
  coerce?: boolean;
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

export const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((check) => check._zod.def);

/** Characters of ordinary text: no controls, no whitespace at the ends to trim away. */
const TEXT_CHARS = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:éü€ '.split(''));

export interface StringLimits {
  min: number;
  max: number;
  format?: string;
  pattern?: RegExp;
}

export function stringLimits(def: Def): StringLimits {
  const limits: StringLimits = { min: 0, max: 64 };
  let bounded = false;
  if (def.format) limits.format = def.format;
  for (const check of [...checksOf(def), ...(def.format ? [{ check: 'string_format', format: def.format, pattern: def.pattern }] : [])]) {
    if (check.check === 'min_length') limits.min = check.minimum ?? 0;
    if (check.check === 'max_length') {
      limits.max = check.maximum ?? limits.max;
      bounded = true;
    }
    if (check.check === 'length_equals') limits.min = limits.max = check.length ?? 0;
    if (check.check === 'string_format' && check.format && check.format !== 'regex') limits.format = check.format;
    // The protocol's plainText() regex only refuses controls, which TEXT_CHARS never produce.
    if (check.check === 'string_format' && check.format === 'regex' && check.pattern && !isPlainTextPattern(check.pattern)) {
      limits.pattern = check.pattern;
    }
  }
  if (!bounded) limits.max = Math.max(limits.min, 64);
  return limits;
}

const isPlainTextPattern = (pattern: RegExp) => pattern.source.startsWith('^[^\\u0000');

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  const { min, max, format, pattern } = stringLimits(def);
  if (format === 'email') {
    const part = fc.stringMatching(/^[a-z0-9]{1,20}$/);
    return fc.tuple(part, part).map(([local, domain]) => `${local}@${domain}.example`).filter((s) => s.length <= max);
  }
  if (format === 'uuid') return fc.uuid();
  if (format === 'url') {
    const validSchemes = ['http', 'https'].filter((scheme) => !def.protocol || def.protocol.test(scheme));
    return fc.webUrl({ validSchemes }).filter((s) => s.length >= min && s.length <= Math.max(max, 2048));
  }
  if (pattern) return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= max);
  return fc
    .string({ unit: TEXT_CHARS, minLength: min, maxLength: Math.min(max, min + 40) })
    .map((s) => s.trim())
    .map((s) => (s.length >= min ? s : s.padEnd(min, 'x')));
}

export interface NumberLimits {
  int: boolean;
  min: number;
  max: number;
}

export function numberLimits(def: Def): NumberLimits {
  const limits: NumberLimits = { int: false, min: -1e9, max: 1e9 };
  for (const check of checksOf(def)) {
    if (check.check === 'number_format') limits.int = true;
    if (check.check === 'greater_than') limits.min = (check.value ?? 0) + (check.inclusive ? 0 : limits.int ? 1 : 1e-6);
    if (check.check === 'less_than') limits.max = (check.value ?? 0) - (check.inclusive ? 0 : limits.int ? 1 : 1e-6);
  }
  return limits;
}

/**
 * A fast-check arbitrary producing values a zod schema accepts, for the kinds of schema protocol/
 * uses. It follows the schema's own limits (lengths, formats, integer bounds), so "every generated
 * value parses" tests the schema and not a filter.
 */
export function arbitraryFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number': {
      const { int, min, max } = numberLimits(def);
      return int ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'nullable':
      return fc.option(arbitraryFor(def.innerType!), { nil: null });
    case 'optional':
      return fc.option(arbitraryFor(def.innerType!), { nil: undefined });
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return arbitraryFor(def.innerType!);
    case 'pipe':
      // A parsing pipe (string → email) is satisfied by what the output accepts; a transform's output
      // is computed, so generate what goes in.
      return defOf(def.out!).type === 'transform' ? arbitraryFor(def.in!) : arbitraryFor(def.out!);
    case 'array': {
      const checks = checksOf(def);
      const minLength = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const maxLength = Math.min(checks.find((c) => c.check === 'max_length')?.maximum ?? 5, minLength + 5);
      return fc.array(arbitraryFor(def.element!), { minLength, maxLength });
    }
    case 'union':
      return fc.oneof(...def.options!.map(arbitraryFor));
    case 'record':
      // Keys are strings on the wire (JSON objects); a few entries are enough to exercise both schemas.
      return fc.dictionary(arbitraryFor(def.keyType!) as fc.Arbitrary<string>, arbitraryFor(def.valueType!), {
        maxKeys: 5,
      });
    case 'object': {
      const entries = Object.entries(def.shape ?? {});
      const required = Object.fromEntries(entries.map(([key, value]) => [key, arbitraryFor(value)]));
      const optionalKeys = entries.filter(([, value]) => ['optional', 'default'].includes(defOf(value).type)).map(([k]) => k);
      return fc.record(required, { requiredKeys: entries.map(([k]) => k).filter((k) => !optionalKeys.includes(k)) });
    }
    case 'unknown':
    case 'any':
      return fc.jsonValue();
    default:
      throw new Error(`arbitraryFor: no generator for zod type "${def.type}"`);
  }
}
