import { z } from 'zod';

/** C0 control characters and DEL: never part of a name, an id or a token (PostgreSQL cannot even store NUL). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const hasControlCharacters = (value: string): boolean => CONTROL_CHARACTER.test(value);

/** A string without control characters: the base of every id, name and token a client sends. */
export const plainText = (what = 'Text') =>
  // eslint-disable-next-line no-control-regex -- see CONTROL_CHARACTER
  z.string().regex(/^[^\u0000-\u001f\u007f]*$/, `${what} must not contain control characters`);

/**
 * What shows nothing by itself: format characters (Unicode category Cf: zero-width spaces and
 * joiners, bidi controls, the BOM), other default-ignorable code points (Hangul fillers, variation
 * selectors), controls, whitespace and separators, combining marks with no base, the blank braille cell.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Z}\p{M}\u2800]/gu;

/** True when something of `value` is visible: a name of only invisible or bidi characters is empty. */
export const hasVisibleText = (value: string): boolean => value.replace(INVISIBLE, '').length > 0;
