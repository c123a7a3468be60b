import { z } from 'zod';

/** C0 control characters and DEL: never part of a name, an id or a token (PostgreSQL cannot even store NUL). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const hasControlCharacters = (value: string): boolean => CONTROL_CHARACTER.test(value);

/** A string without control characters: the base of every id, name and token a client sends. */
export const plainText = (what = 'Text') =>
  // eslint-disable-next-line no-control-regex -- see CONTROL_CHARACTER
  z.string().regex(/^[^\u0000-\u001f\u007f]*$/, `${what} must not contain control characters`);
