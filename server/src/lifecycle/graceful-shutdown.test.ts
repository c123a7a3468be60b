import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/database.js';
import { gracefulShutdown, SHUTDOWN_DEADLINE_MS } from './graceful-shutdown.js';

/**
 * The shutdown's deadline on a faked clock: a dependency that never answers cannot keep the process
 * past it, and an orchestrator's 10 s is never reached. (shutdown.integration.test.ts stops a real
 * server process with its Redis or database gone.)
 */
function stopping(closes: Promise<void>) {
  const app = {
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ctx: { voice: { sfu: undefined } },
    websocketServer: { clients: new Set() },
    close: () => closes,
  } as unknown as FastifyInstance;
  const database = { close: async () => undefined } as unknown as DatabaseHandle;
  const exits: number[] = [];
  const exit = ((code: number) => {
    exits.push(code);
  }) as (code: number) => never;
  void gracefulShutdown(app, database, 'SIGTERM', exit);
  return exits;
}

describe('graceful shutdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('exits at its deadline, inside 10 s, when a dependency never lets the server close', async () => {
    expect(SHUTDOWN_DEADLINE_MS).toBeLessThan(10_000);
    const exits = stopping(new Promise<void>(() => undefined));
    await vi.advanceTimersByTimeAsync(SHUTDOWN_DEADLINE_MS - 1);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([0]);
  });

  it('exits as soon as everything closed, without waiting for the deadline', async () => {
    const exits = stopping(Promise.resolve());
    await vi.advanceTimersByTimeAsync(0);
    expect(exits).toEqual([0]);
    await vi.advanceTimersByTimeAsync(SHUTDOWN_DEADLINE_MS);
    expect(exits).toEqual([0]);
  });
});
