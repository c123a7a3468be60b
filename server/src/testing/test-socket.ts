import WebSocket from 'ws';
import { rawBuffer } from '../realtime/raw-data.js';
import type { TestClient } from './http-client.js';

/**
 * How long a test waits for a message it expects. It bounds arrival, not speed: on a loaded
 * two-core machine a push that takes milliseconds alone has taken over 5 s.
 */
export const WAIT_FOR_MESSAGE_MS = 15_000;

/** A real `/ws` connection for tests, with a way to wait for the message a test expects. */
export class TestSocket {
  readonly received: unknown[] = [];
  private waiters: { match: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message: unknown = JSON.parse(rawBuffer(data).toString('utf8'));
      this.received.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  /** Opens `/ws` with the client's cookies; rejects with the HTTP status when the upgrade is refused. */
  static open(client: TestClient, options: { origin?: string; path?: string; cookies?: boolean } = {}): Promise<TestSocket> {
    const url = new URL(options.path ?? '/ws', client.baseUrl);
    url.protocol = 'ws:';
    const headers: Record<string, string> = { origin: options.origin ?? new URL(client.baseUrl).origin };
    if (options.cookies !== false && client.cookies.size) headers.cookie = client.cookieHeader();
    const ws = new WebSocket(url, { headers });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TestSocket(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message (already received or still to come) that matches. */
  next<T = Record<string, unknown>>(match: (m: T) => boolean, timeoutMs = WAIT_FOR_MESSAGE_MS): Promise<T> {
    const seen = this.received.find((m) => match(m as T));
    if (seen) return Promise.resolve(seen as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // What did arrive, so a failure in CI says what the server sent instead.
        const last = this.received.slice(-6).map((m) => JSON.stringify(m).slice(0, 200));
        reject(new Error(`no matching message within ${timeoutMs} ms; last received:\n${last.join('\n')}`));
      }, timeoutMs);
      this.waiters.push({
        match: (m) => match(m as T),
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as T);
        },
      });
    });
  }

  /** Forgets what was received so far, so `next` waits for new messages only. */
  clear(): void {
    this.received.length = 0;
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  closed(): Promise<{ code: number; reason: string }> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) resolve({ code: 0, reason: 'already closed' });
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }
}
