import { describe, expect, it } from 'vitest';
import { NegotiationQueue } from './negotiation-queue.js';

describe('NegotiationQueue', () => {
  it('runs one negotiation at a time and collapses requests made meanwhile into one more run', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    let release: (() => void) | undefined;
    const queue = new NegotiationQueue(
      async () => {
        running++;
        runs++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((resolve) => (release = resolve));
        running--;
      },
      () => undefined,
    );
    queue.request();
    queue.request();
    queue.request();
    await Promise.resolve();
    release?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    release?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(2);
    expect(maxRunning).toBe(1);
  });

  it('reports a failed run and keeps serving later requests; stops after close', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const queue = new NegotiationQueue(
      () => {
        runs++;
        return runs === 1 ? Promise.reject(new Error('boom')) : Promise.resolve();
      },
      (error) => errors.push(error),
    );
    queue.request();
    await new Promise((resolve) => setTimeout(resolve, 0));
    queue.request();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    queue.close();
    queue.request();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(2);
  });
});
