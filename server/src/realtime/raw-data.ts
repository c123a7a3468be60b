import type { RawData } from 'ws';

/** A ws message as one Buffer, whichever of its three shapes it arrived in. */
export function rawBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
