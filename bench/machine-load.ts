import { readFileSync } from 'node:fs';

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

/** Starts measuring; the result says how busy the machine was and how much of it was others'. */
export function cpuMeter(): () => string {
  const machine = machineCpu();
  const own = process.cpuUsage();
  return () => {
    const after = machineCpu();
    const ownUs = process.cpuUsage(own);
    if (machine === null || after === null) return 'not measured (no /proc/stat)';
    const total = after.total - machine.total;
    const busy = after.busy - machine.busy;
    // /proc/stat counts in USER_HZ, 100 a second on Linux: one jiffy is 10 ms = 10,000 µs.
    const ownJiffies = (ownUs.user + ownUs.system) / 10_000;
    const share = (value: number) => `${((100 * value) / total).toFixed(0)} %`;
    return `machine ${share(busy)} busy, this process ${share(ownJiffies)}, others ${share(Math.max(0, busy - ownJiffies))}`;
  };
}
