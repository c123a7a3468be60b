import { readFileSync } from 'node:fs';

/** Linux USER_HZ: /proc reports CPU times in these ticks. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, all threads, dead ones included) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may contain spaces; fields are counted from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / TICKS_PER_SECOND;
}

/** Resident set size in MiB. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

/** Measures a process's CPU over `work` as a percentage of one core. */
export async function cpuPercentOver<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: number; wallSeconds: number }> {
  const cpu0 = cpuSeconds(pid);
  const wall0 = performance.now();
  const result = await work();
  return {
    result,
    cpuSeconds: cpuSeconds(pid) - cpu0,
    wallSeconds: (performance.now() - wall0) / 1000,
  };
}
