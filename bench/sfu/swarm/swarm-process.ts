import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SwarmCommand, SwarmReply } from '../werift-swarm.js';

type Ok<K extends string> = Extract<SwarmReply, { ok: K }>;
type ReplyFor<C extends SwarmCommand['cmd']> = {
  join: Ok<'joined'>;
  stream: Ok<'streaming'>;
  publish: Ok<'published'>;
  window: Ok<'window'>;
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
      execArgv: ['--import', 'tsx'],
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

  kill(): void {
    this.child.kill();
  }
}
