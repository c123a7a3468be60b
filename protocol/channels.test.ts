import { describe, expect, it } from 'vitest';
import { addMemberBodySchema, channelIdSchema, createChannelBodySchema } from './channels.js';

describe('channel protocol schemas', () => {
  it('trims channel names and keeps them between 1 and 64 characters (spec §5, DESIGN §3)', () => {
    expect(createChannelBodySchema.parse({ name: '  Family ' })).toEqual({ name: 'Family' });
    expect(createChannelBodySchema.safeParse({ name: '   ' }).error?.issues[0]?.message).toBe(
      'Channel name cannot be empty',
    );
    expect(createChannelBodySchema.safeParse({ name: 'x'.repeat(64) }).success).toBe(true);
    expect(createChannelBodySchema.safeParse({ name: 'x'.repeat(65) }).success).toBe(false);
  });

  it('refuses names that show nothing: zero-width, bidi and other format characters, whitespace', () => {
    const invisible = [
      '\u200b', // zero-width space
      '\u200c\u200d', // zero-width non-joiner and joiner
      '\u202e\u202c', // right-to-left override, pop
      '\u2066\u2069', // left-to-right isolate, pop
      '\u200e\u200f\u061c', // direction marks
      '\ufeff\u2060', // byte-order mark, word joiner
      '\u00ad', // soft hyphen
      '\u3164\u115f', // Hangul fillers
      '\ufe0f\u034f', // variation selector, combining grapheme joiner
      '\u3000\u00a0\u2028', // ideographic space, no-break space, line separator
      '\u2800', // blank braille cell
      '\u{e0041}', // tag character
      ' \u200b \u202e ',
    ];
    for (const name of invisible) {
      expect(createChannelBodySchema.safeParse({ name }).error?.issues[0]?.message, JSON.stringify(name)).toBe(
        'Channel name cannot be empty',
      );
    }
    // Visible text around such characters stays as typed (emoji sequences use joiners and selectors).
    for (const name of ['Family', '\u202eylimaF', 'שלום', 'Team 👩\u200d👩\u200d👧', '❤\ufe0f', 'é', 'e\u0301'])
      expect(createChannelBodySchema.parse({ name }).name).toBe(name);
  });

  it('reads channel ids from path strings, refusing what no serial id can be', () => {
    expect(channelIdSchema.parse('42')).toBe(42);
    for (const bad of ['0', '-1', '1.5', 'abc', '', '2147483648'])
      expect(channelIdSchema.safeParse(bad).success).toBe(false);
  });

  it('adds a member by user id or by e-mail', () => {
    expect(addMemberBodySchema.parse({ userId: 'u1' })).toEqual({ userId: 'u1' });
    expect(addMemberBodySchema.parse({ email: ' A@B.example ' })).toEqual({ email: 'a@b.example' });
    expect(addMemberBodySchema.safeParse({}).success).toBe(false);
    expect(addMemberBodySchema.safeParse({ userId: '' }).success).toBe(false);
  });
});
