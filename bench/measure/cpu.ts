import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU seconds (user + system) a process has used so far; null once it is gone. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): utime is the
    // 14th field of the line and stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** The local database server's process, when it runs on this machine. */
export function findDatabasePid(): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const name = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (name === 'mariadbd' || name === 'mysqld') return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return null;
}

/** Which processes share the machine during a load phase: their CPU is reported per phase. */
const watched = new Map<string, number>();

export function watchCpu(name: string, pid: number | null | undefined): void {
  if (pid) watched.set(name, pid);
  else watched.delete(name);
}

/** Per watched process and this one (the load generator), % of one core over the phase. */
export async function measureCpu<T>(
  phase: () => Promise<T>,
): Promise<{ result: T; cpu: Record<string, number> }> {
  const started = process.hrtime.bigint();
  const ownBefore = process.cpuUsage();
  const before = new Map([...watched].map(([name, pid]) => [name, cpuSeconds(pid)]));
  const result = await phase();
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const own = process.cpuUsage(ownBefore);
  const cpu: Record<string, number> = {};
  for (const [name, pid] of watched) {
    const [from, to] = [before.get(name), cpuSeconds(pid)];
    if (from !== null && from !== undefined && to !== null) cpu[name] = (100 * (to - from)) / wall;
  }
  cpu['load generator'] = (100 * (own.user + own.system)) / 1e6 / wall;
  return { result, cpu };
}
