import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tickWrites } from './tick-writes.js';

/** A stream that records each write it is handed: one entry per write (or writev) call. */
function recordingStream() {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, calls };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('tickWrites', () => {
  it('hands the writes of one tick to the stream as one write, in order', async () => {
    const { stream, calls } = recordingStream();
    const hold = tickWrites(stream);
    for (const frame of ['a', 'b', 'c']) {
      hold();
      stream.write(frame);
    }
    expect(calls).toEqual([]);
    await nextTurn();
    expect(calls).toEqual([['a', 'b', 'c']]);
  });

  it('holds nothing past its tick: a later tick is a write of its own', async () => {
    const { stream, calls } = recordingStream();
    const hold = tickWrites(stream);
    hold();
    stream.write('a');
    await nextTurn();
    hold();
    stream.write('b');
    hold();
    stream.write('c');
    await nextTurn();
    expect(calls).toEqual([['a'], ['b', 'c']]);
  });
});
