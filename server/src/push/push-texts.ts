import { createHash } from 'node:crypto';

/** A notification's tag (at most 64 characters): `<prefix>-<id>`, the id hashed when too long. */
export function pushTag(prefix: string, id: string | number): string {
  const tag = `${prefix}-${id}`;
  return tag.length <= 64 ? tag : `${prefix}-${createHash('sha256').update(String(id)).digest('base64url').slice(0, 40)}`;
}

/**
 * The push service's topic for a tag (RFC 8030 §5.4: at most 32 base64url characters): a newer
 * message of the same tag replaces one the device has not fetched yet.
 */
export function pushTopic(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

/** A duration as m:ss, at least 0:01 ("0:04"). */
export function minutesSeconds(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Cuts a text to what the payload schema allows, with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
