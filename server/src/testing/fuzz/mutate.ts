import type { Random } from './random.js';

/** One frame as sent: text (JSON or not) or raw bytes. */
export type Frame = { text: string } | { binary: Buffer };

const hostile: unknown[] = [
  null,
  true,
  -1,
  0,
  1e308,
  -0,
  2 ** 53 + 1,
  '',
  ' ',
  '\u0000',
  '\ud800',
  '💥'.repeat(50),
  'x'.repeat(5000),
  [],
  {},
  [[[[[]]]]],
  { constructor: { prototype: { polluted: true } } },
];

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** A valid message, or one of many ways of breaking it: the frames a hostile client sends. */
export function mutate(message: Record<string, unknown>, random: Random): Frame {
  const copy: Record<string, unknown> = { ...message };
  const keys = Object.keys(copy);
  switch (random.int(0, 13)) {
    case 0:
      return { text: JSON.stringify(copy) }; // unchanged: valid traffic among the noise
    case 1:
      if (keys.length) delete copy[random.pick(keys)];
      break;
    case 2:
      if (keys.length) copy[random.pick(keys)] = random.pick(hostile);
      break;
    case 3: {
      // Written into the text: assigning `__proto__` on an object would not serialize it.
      const key = random.pick(['__proto__', 'constructor', 'prototype', random.string(6)]);
      const extra = `${JSON.stringify(key)}:${JSON.stringify(random.pick(hostile))},`;
      return { text: JSON.stringify(copy).replace(/^\{/, `{${extra}`) };
    }
    case 4:
      copy.type = random.pick([
        random.string(8),
        '',
        'join',
        'JOIN_CHANNEL',
        'join_channel ',
        null,
        7,
      ]);
      break;
    case 5: {
      const text = JSON.stringify(copy);
      return { text: text.slice(0, random.int(0, text.length)) }; // truncated
    }
    case 6:
      return {
        binary: Buffer.from(Array.from({ length: random.int(1, 64) }, () => random.int(0, 255))),
      };
    case 7:
      return {
        text: random.pick(['null', '[]', '"type"', '1e999', 'NaN', '{"type":', '}', '\u0000']),
      };
    case 8:
      copy.pad = 'x'.repeat(random.int(15_000, 40_000)); // around the 16 KB limit
      break;
    case 9:
      return { text: JSON.stringify(nest(random.int(100, 3000))) };
    case 10:
      return { text: JSON.stringify([copy, copy]) };
    case 11:
      if (keys.length) copy[random.pick(keys)] = { nested: copy[random.pick(keys)] };
      break;
    case 12:
      return { text: JSON.stringify(copy).replace(/"/, "'") };
    default:
      if (keys.length)
        copy[random.pick(keys)] = random.string(random.int(0, 300), '\u0000\u0001"\\{}[]<>&%$é漢');
  }
  return { text: JSON.stringify(copy) };
}
