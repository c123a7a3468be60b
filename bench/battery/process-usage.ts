import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time and wake-ups of processes, read from Linux's /proc: what a battery pays for, whichever
 * thread of a process (main, compositor, raster, audio, network) does the work.
 */

const CLOCK_TICKS = (() => {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(answer.stdout.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
})();

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process (or thread) ended between listing and reading
  }
};

interface Stat {
  ppid: number;
  /** User + system CPU of all its threads, in seconds. */
  cpuSeconds: number;
}

function statOf(pid: number): Stat | undefined {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return undefined;
  // The command name is in parentheses and may hold spaces: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(fields[1]),
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
  };
}

/** Context switches of every thread: each one is a thread that slept and was woken (or preempted). */
function contextSwitchesOf(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let total = 0;
  for (const tid of tasks) {
    const status = read(`/proc/${pid}/task/${tid}/status`) ?? '';
    for (const match of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm))
      total += Number(match[1]);
  }
  return total;
}

/** Chromium's role for one of its processes, from `--type=` (and the utility's sub-type). */
export function chromiumRole(pid: number): string {
  const args = (read(`/proc/${pid}/cmdline`) ?? '').split(/[\0 ]/); // Chromium rewrites its title with spaces
  const type = args.find((arg) => arg.startsWith('--type='))?.slice('--type='.length);
  if (!type) return 'browser';
  if (type !== 'utility') return type;
  const sub = args.find((arg) => arg.startsWith('--utility-sub-type='))?.split('=')[1] ?? '';
  if (sub.includes('audio')) return 'audio service';
  if (sub.includes('network')) return 'network service';
  return `utility (${sub || 'other'})`;
}

/** `root` and every process below it. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = statOf(pid);
    if (!stat) continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

export interface Usage {
  cpuSeconds: number;
  contextSwitches: number;
}

export type Snapshot = Map<number, Usage>;

export function snapshot(pids: number[]): Snapshot {
  const out: Snapshot = new Map();
  for (const pid of pids) {
    const stat = statOf(pid);
    if (stat)
      out.set(pid, { cpuSeconds: stat.cpuSeconds, contextSwitches: contextSwitchesOf(pid) });
  }
  return out;
}

/** What each process used between two snapshots (a process born in between counts from zero). */
export function usedBetween(before: Snapshot, after: Snapshot): Snapshot {
  const out: Snapshot = new Map();
  for (const [pid, end] of after) {
    const start = before.get(pid) ?? { cpuSeconds: 0, contextSwitches: 0 };
    const switches = end.contextSwitches - start.contextSwitches;
    out.set(pid, {
      cpuSeconds: end.cpuSeconds - start.cpuSeconds,
      // Counted per thread: a thread that ended took its count along (a reconnect's threads), so
      // a fall means the figure is unknown, not negative.
      contextSwitches: switches < 0 ? Number.NaN : switches,
    });
  }
  return out;
}

export function sum(usages: Iterable<Usage>): Usage {
  let cpuSeconds = 0;
  let contextSwitches = 0;
  for (const usage of usages) {
    cpuSeconds += usage.cpuSeconds;
    contextSwitches += usage.contextSwitches;
  }
  return { cpuSeconds, contextSwitches };
}
