// The load test's figures: latencies per route and phase, answers by status, and the tables
// they are printed as.

/** The value below which `fraction` of the sorted values lie (nearest rank). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] ?? NaN;
}

export interface Spread {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

interface RouteFigures {
  /** Milliseconds from sending a request to holding its whole answer, 2xx answers only. */
  latencies: number[];
  /** When each of those answers came, in milliseconds since the phase started. */
  answeredAt: number[];
  /** Every answer by status (`201`, `429 too-many-concurrent`, `network`). */
  statuses: Map<string, number>;
}

/** What one phase of the run recorded, route by route. */
export class PhaseFigures {
  readonly routes = new Map<string, RouteFigures>();
  startedAt = performance.now();
  endedAt = NaN;

  constructor(readonly name: string) {}

  record(route: string, status: string, ms: number): void {
    let figures = this.routes.get(route);
    if (figures === undefined) {
      figures = { latencies: [], answeredAt: [], statuses: new Map() };
      this.routes.set(route, figures);
    }
    figures.statuses.set(status, (figures.statuses.get(status) ?? 0) + 1);
    if (status.startsWith('2')) {
      figures.latencies.push(ms);
      figures.answeredAt.push(performance.now() - this.startedAt);
    }
  }

  /**
   * The p99 of `route`'s latencies in each `sliceSeconds` of the phase, by when the answer came:
   * whether a phase's p99 comes from all of it or from a few seconds (a flood's first burst).
   */
  p99BySlice(route: string, sliceSeconds: number): string {
    const figures = this.routes.get(route);
    if (figures === undefined) return '–';
    const slices: (number[] | undefined)[] = [];
    figures.answeredAt.forEach((at, index) => {
      const slice = Math.floor(at / 1000 / sliceSeconds);
      (slices[slice] ??= []).push(figures.latencies[index] ?? NaN);
    });
    return Array.from(slices, (values) => msText(spreadOf(values ?? []).p99)).join(' · ');
  }

  get seconds(): number {
    return (this.endedAt - this.startedAt) / 1000;
  }

  latencies(route: string): readonly number[] {
    return this.routes.get(route)?.latencies ?? [];
  }

  /** 5xx answers and failed connections, over every route. */
  serverErrors(): number {
    let count = 0;
    for (const figures of this.routes.values()) {
      for (const [status, n] of figures.statuses) {
        if (status.startsWith('5') || status === 'network') count += n;
      }
    }
    return count;
  }

  /** One row per route: answers, answers a second, latency percentiles and the non-2xx. */
  table(): string[] {
    const header = ['route', 'answers', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'not 2xx'];
    const rows = [...this.routes.entries()].map(([route, figures]) => {
      const total = [...figures.statuses.values()].reduce((sum, n) => sum + n, 0);
      const spread = spreadOf(figures.latencies);
      const errors = [...figures.statuses.entries()]
        .filter(([status]) => !status.startsWith('2'))
        .map(([status, n]) => `${status}: ${n.toLocaleString('en-US')}`)
        .join(', ');
      return [
        route,
        total.toLocaleString('en-US'),
        (total / this.seconds).toFixed(1),
        msText(spread.p50),
        msText(spread.p95),
        msText(spread.p99),
        msText(spread.max),
        errors === '' ? 'no errors' : errors,
      ];
    });
    return alignColumns([header, ...rows]);
  }
}

export function msText(value: number): string {
  if (Number.isNaN(value)) return '–';
  return value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
}

/** Columns padded to their widest cell: text left, figures right; the last cell as it is. */
export function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, index) => {
        const width = widths[index];
        if (width === undefined) return cell;
        return index === 0 ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd(),
  );
}
