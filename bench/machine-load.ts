import { readdirSync, readFileSync } from 'node:fs';

// How busy the machine was while a benchmark ran: it is shared, so a figure is read beside the
// load it was measured under.

/** Jiffies the machine spent busy and in all, from /proc/stat (Linux), or null elsewhere. */
function machineCpu(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** CPU a process has used (user + system) in jiffies, from /proc/<pid>/stat; 0 once it is gone. */
export function processJiffies(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in brackets, may hold spaces: the fields are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The ids of the running processes whose command name is `name` (`postgres`, say). */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // Gone since the folder was read.
    }
  }
  return pids;
}

/** Other processes whose share of the machine a meter names: the servers, the database. */
export interface ProcessGroup {
  readonly name: string;
  /** Read at the start and at the end; a process that started in between counts whole. */
  readonly pids: () => readonly number[];
}

/**
 * Starts measuring; the result says how busy the machine was and how much of it was this
 * process's, each group's, and the rest's (others).
 */
export function cpuMeter(groups: readonly ProcessGroup[] = []): () => string {
  const machine = machineCpu();
  const own = process.cpuUsage();
  const startJiffies = new Map<number, number>();
  for (const group of groups) {
    for (const pid of group.pids()) startJiffies.set(pid, processJiffies(pid));
  }
  return () => {
    const after = machineCpu();
    const ownUs = process.cpuUsage(own);
    if (machine === null || after === null) return 'not measured (no /proc/stat)';
    const total = after.total - machine.total;
    const busy = after.busy - machine.busy;
    // /proc/stat counts in USER_HZ, 100 a second on Linux: one jiffy is 10 ms = 10,000 µs.
    const ownJiffies = (ownUs.user + ownUs.system) / 10_000;
    const share = (value: number) => `${((100 * value) / total).toFixed(0)} %`;
    const parts = [`machine ${share(busy)} busy`, `this process ${share(ownJiffies)}`];
    let named = ownJiffies;
    for (const group of groups) {
      const jiffies = group
        .pids()
        .reduce((sum, pid) => sum + processJiffies(pid) - (startJiffies.get(pid) ?? 0), 0);
      named += jiffies;
      parts.push(`${group.name} ${share(jiffies)}`);
    }
    parts.push(`others ${share(Math.max(0, busy - named))}`);
    return parts.join(', ');
  };
}
