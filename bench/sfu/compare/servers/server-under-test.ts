import type { JoinTarget, ServerKind } from '../../swarm/swarm-client.js';

/** One media server running in a process of its own, so its CPU time and memory are its own. */
export interface ServerUnderTest {
  readonly kind: ServerKind;
  readonly label: string;
  readonly pid: number;
  /** A publisher's join for `room` (a fresh room per test step). */
  publisherTarget(room: string, user: string): Promise<JoinTarget>;
  /** A listener's join: may subscribe, may not publish. Janus needs the publisher's feed id. */
  subscriberTarget(room: string, user: string, feed?: number): Promise<JoinTarget>;
  stop(): Promise<void>;
}

export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const started = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`${what} did not start in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
