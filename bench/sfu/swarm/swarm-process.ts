import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SwarmCommand, SwarmReply } from './swarm-messages.js';

type Ok<K extends string> = Extract<SwarmReply, { ok: K }>;
type ReplyFor<C extends SwarmCommand['cmd']> = {
  join: Ok<'joined'>;
  stream: Ok<'streaming'>;
  publish: Ok<'published'>;
  window: Ok<'window'>;
  silence: Ok<'silence'>;
  stats: Ok<'stats'>;
  leave: Ok<'left'>;
}[C];

/** One werift-swarm child process and a typed request/reply channel to it. */
export class SwarmProcess {
  readonly child: ChildProcess;
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: SwarmReply) => void>();

  constructor() {
    this.child = fork(fileURLToPath(new URL('../werift-swarm.ts', import.meta.url)), [], {
      // SFU_SWARM_CPU_PROF=<dir> profiles the swarm itself (is the load generator keeping up?).
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.SFU_SWARM_CPU_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SFU_SWARM_CPU_PROF}`]
          : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: SwarmReply & { id: number }) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  ask<C extends SwarmCommand>(command: C): Promise<ReplyFor<C['cmd']>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) =>
        'error' in reply ? reject(new Error(reply.error)) : resolve(reply as ReplyFor<C['cmd']>),
      );
      this.child.send({ ...command, id });
    });
  }

  /** Ends the child: it exits when the IPC channel closes (and writes its profile if asked to). */
  kill(): void {
    if (this.child.connected) this.child.disconnect();
    setTimeout(() => this.child.kill(), 5_000).unref();
  }
}
