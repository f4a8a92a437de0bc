import { statusWord } from '@docket/core/bills';
import { type RefObject, useId, useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import {
  addDays,
  type StatusBar,
  type TrackedBillChartData,
  type WeekBar,
} from '@docket/core/lists';
import { formatBillDate } from '../bills/bill-words.ts';
import { trackedByStatusPath, trackedByWeekPath } from './tracked-chart-paths.ts';
import { useTrackedChartData } from './tracked-chart-data.ts';
import './tracked-charts.css';

// The Tracked tab's charts. The bars are HTML drawn here rather than by a chart library: the
// canvas libraries (Chart.js, uPlot) paint bars that cannot be links, take keyboard focus or
// carry a name, and every bar here must be all three. SVG kits (visx, Recharts) could wrap a bar
// in a link, but would add a dependency only to compute widths a percentage gives, and SVG text
// does not wrap "Passed both chambers" on a 360 px phone; plain elements do, without measuring.

/** What a bar's link tells the Tracked screen: bring the filtered list into view. */
const TO_THE_LIST = { fromChart: true } as const;

function billCount(count: number): string {
  return count === 1 ? '1 bill' : `${count} bills`;
}

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'short', timeZone: 'UTC' });
const utc = (date: string) => new Date(`${date}T00:00:00Z`);

/** What a screen reader says for a weekly bar, and the row heading of the numbers table. */
function weekName(weekStart: string): string {
  return `Week of ${formatBillDate(weekStart)}`;
}

/** Share of the largest bar, so the largest fills its track and the others compare with it. */
function share(count: number, largest: number): number {
  return largest === 0 ? 0 : count / largest;
}

function StatusChart({ bars }: { readonly bars: readonly StatusBar[] }) {
  const shown = bars.filter((bar) => bar.count > 0);
  const largest = Math.max(0, ...shown.map((bar) => bar.count));
  // Ionic keeps a page's previous copy in the DOM during transitions, so ids must be unique.
  const titleId = useId();
  return (
    <div className="tracked-chart">
      <h3 id={titleId}>Tracked bills by status</h3>
      <ul className="status-bars" aria-labelledby={titleId}>
        {shown.map((bar) => {
          const name = `${statusWord(bar.status)}: ${billCount(bar.count)}`;
          return (
            <li key={bar.status}>
              <Link
                className="status-bar"
                to={trackedByStatusPath(bar.status)}
                state={TO_THE_LIST}
                aria-label={name}
              >
                <span className="status-bar-label" aria-hidden="true">
                  {statusWord(bar.status)}
                </span>{' '}
                {/* The space keeps the visible words ("Vetoed 1") apart, so they read as part
                    of the name ("Vetoed: 1 bill") for people who speak it to select the bar. */}
                <span className="status-bar-track" aria-hidden="true">
                  <span
                    className="chart-fill status-bar-fill"
                    style={{ width: `calc((100% - 3rem) * ${share(bar.count, largest)})` }}
                  />
                  <span className="chart-value">{bar.count}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
      <ChartNumbers
        summary="Numbers by status"
        caption="Tracked bills by status"
        columns={['Status', 'Bills']}
        rows={bars.map((bar) => ({
          key: bar.status,
          label: statusWord(bar.status),
          count: bar.count,
        }))}
      />
    </div>
  );
}

/** Day of month under every bar; the month's name under the first bar and where it changes. */
function WeekTick({ weekStart, first }: { readonly weekStart: string; readonly first: boolean }) {
  const month = monthFormat.format(utc(weekStart));
  const newMonth = first || month !== monthFormat.format(utc(addDays(weekStart, -7)));
  return (
    <span className="week-bar-tick" aria-hidden="true">
      <span>{dayFormat.format(utc(weekStart))}</span>
      <span>{newMonth ? month : ''}</span>
    </span>
  );
}

/**
 * On a narrow screen the bars scroll sideways; the latest weeks are the ones people want. Scrolls
 * the element given the ref to its end, and again whenever its width changes (a collapsed panel
 * opened, a phone turned) or the number of bars does.
 */
function useLatestWeeksInView(barCount: number): RefObject<HTMLDivElement | null> {
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return undefined;
    const showLatest = () => {
      element.scrollLeft = element.scrollWidth;
    };
    showLatest();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(showLatest);
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [barCount]);
  return scroller;
}

/** One week's bar: a link to that week's bills, or for an empty week a column read out as zero. */
function WeekBarItem({
  bar,
  largest,
  first,
}: {
  readonly bar: WeekBar;
  readonly largest: number;
  /** Whether it is the chart's first bar, which names its month. */
  readonly first: boolean;
}) {
  const name = `${weekName(bar.weekStart)}: ${billCount(bar.count)}`;
  const column = (
    <>
      <span className="chart-value" aria-hidden="true">
        {bar.count > 0 ? bar.count : ''}
      </span>
      <span
        className="chart-fill week-bar-fill"
        aria-hidden="true"
        style={{ height: `${(share(bar.count, largest) * 8).toFixed(3)}rem` }}
      />
    </>
  );
  return (
    <li className="week-bar">
      {bar.count > 0 ? (
        <Link
          className="week-bar-column"
          to={trackedByWeekPath(bar.weekStart)}
          state={TO_THE_LIST}
          aria-label={name}
        >
          {column}
        </Link>
      ) : (
        // Nothing to list for an empty week, so no link; still read out as zero.
        <span className="week-bar-column">
          <span className="visually-hidden">{name}</span>
          {column}
        </span>
      )}
      <WeekTick weekStart={bar.weekStart} first={first} />
    </li>
  );
}

function WeekChart({ bars }: { readonly bars: readonly WeekBar[] }) {
  const scroller = useLatestWeeksInView(bars.length);
  const titleId = useId();
  const largest = Math.max(0, ...bars.map((bar) => bar.count));
  const firstWeek = bars[0]?.weekStart;
  const lastWeek = bars.at(-1)?.weekStart;
  return (
    <div className="tracked-chart">
      <h3 id={titleId}>Tracked bills with an action, per week</h3>
      {firstWeek === undefined || lastWeek === undefined ? (
        <p>None of the tracked bills has a dated action yet.</p>
      ) : (
        <>
          <p className="chart-note">
            Weeks run Monday to Sunday, from {formatBillDate(firstWeek)} to{' '}
            {formatBillDate(addDays(lastWeek, 6))}. A bill counts once a week however many actions
            it had.
          </p>
          <div className="week-chart-scroll" ref={scroller}>
            <ol className="week-bars" aria-labelledby={titleId}>
              {bars.map((bar, index) => (
                <WeekBarItem key={bar.weekStart} bar={bar} largest={largest} first={index === 0} />
              ))}
            </ol>
          </div>
          <ChartNumbers
            summary="Numbers by week"
            caption="Tracked bills with an action, per week"
            columns={['Week', 'Bills with an action']}
            rows={bars.map((bar) => ({
              key: bar.weekStart,
              label: weekName(bar.weekStart),
              count: bar.count,
            }))}
          />
        </>
      )}
    </div>
  );
}

/** A chart's numbers as a table, behind a disclosure: one row per bar, its name and its count. */
function ChartNumbers({
  summary,
  caption,
  columns,
  rows,
}: {
  readonly summary: string;
  readonly caption: string;
  readonly columns: readonly [string, string];
  readonly rows: readonly {
    readonly key: string;
    readonly label: string;
    readonly count: number;
  }[];
}) {
  return (
    <details className="chart-numbers">
      <summary>{summary}</summary>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td>{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** The charts for given numbers; undefined while they load. */
export function TrackedChartsView({ data }: { readonly data: TrackedBillChartData | undefined }) {
  const titleId = useId();
  return (
    <section className="charts-panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="visually-hidden">
        Charts
      </h2>
      {data === undefined ? (
        <p role="status">Loading charts…</p>
      ) : data.total === 0 ? (
        <p>
          No tracked bills yet, so nothing to chart. Bills you track on the Bills tab show here.
        </p>
      ) : (
        <>
          <p className="chart-note">
            {billCount(data.total)} tracked. Choose a bar to list its bills.
          </p>
          <StatusChart bars={data.byStatus} />
          <WeekChart bars={data.byWeek} />
        </>
      )}
    </section>
  );
}

/** Tracked bills by status and per week, read live from the device's store; no props. */
export function TrackedCharts() {
  return <TrackedChartsView data={useTrackedChartData()} />;
}
