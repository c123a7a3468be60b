import type { Writable } from 'node:stream';

/**
 * Holds a stream's writes until the end of the current tick: the frames a burst sends to one socket
 * (a batch of member cards fanned out to a channel) leave in one write, not one system call each.
 * Call the returned function before each write; nothing is delayed past the running tick.
 */
export function tickWrites(stream: Writable): () => void {
  let held = false;
  const release = () => {
    held = false;
    stream.uncork();
  };
  return () => {
    if (held) return;
    held = true;
    stream.cork();
    process.nextTick(release);
  };
}
