import type { z } from 'zod';
import type { Random } from './random.js';

/** Real values the server knows (a channel the fuzzing users are in, a call room), used often. */
export interface SampleContext {
  strings: string[];
  numbers: number[];
}

interface Def {
  type: string;
  checks?: {
    _zod: { def: { check: string; minimum?: number; maximum?: number; value?: number } };
  }[];
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, unknown>;
  in?: z.ZodType;
  valueType?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

function bounds(def: Def): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length') out.min = c.minimum;
    if (c.check === 'max_length') out.max = c.maximum;
    if (c.check === 'greater_than') out.min = c.value;
    if (c.check === 'less_than') out.max = c.value;
  }
  return out;
}

/**
 * A value the schema (mostly) accepts, drawn at random: the fuzzer's starting point before it
 * mutates. Lengths and ranges follow the schema's checks loosely; real ids from `context` are used
 * often so that messages reach past "no such channel" into the handlers.
 */
export function sample(
  schema: z.ZodType,
  random: Random,
  context: SampleContext,
  depth = 0,
): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const optional = defOf(field).type === 'optional';
        if (optional && random.chance(0.3)) continue;
        out[key] = sample(field, random, context, depth + 1);
      }
      return out;
    }
    case 'string': {
      if (context.strings.length && random.chance(0.5)) return random.pick(context.strings);
      const { min = 1, max = 40 } = bounds(def);
      return random.string(random.int(min, Math.min(max, Math.max(min, 40))));
    }
    case 'number': {
      if (context.numbers.length && random.chance(0.6)) return random.pick(context.numbers);
      const { min = 0, max = 100 } = bounds(def);
      return random.int(Math.max(min, -5), Math.min(max, 1_000_000));
    }
    case 'boolean':
      return random.chance(0.5);
    case 'literal':
      return random.pick(def.values ?? [null]);
    case 'enum':
      return random.pick(Object.values(def.entries ?? {}));
    case 'optional':
    case 'default':
      return sample(def.innerType!, random, context, depth + 1);
    case 'nullable':
      return random.chance(0.2) ? null : sample(def.innerType!, random, context, depth + 1);
    case 'array': {
      if (depth > 6) return [];
      const { max = 4 } = bounds(def);
      return Array.from({ length: random.int(0, Math.min(max, 4)) }, () =>
        sample(def.element!, random, context, depth + 1),
      );
    }
    case 'union':
      return sample(random.pick(def.options ?? []), random, context, depth + 1);
    case 'pipe':
      return sample(def.in!, random, context, depth + 1);
    case 'record':
      return {
        [random.string(4)]: def.valueType ? sample(def.valueType, random, context, depth + 1) : 1,
      };
    default:
      return random.string(8);
  }
}
