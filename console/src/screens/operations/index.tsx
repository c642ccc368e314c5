import { useLocation } from 'preact-iso';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type OpsMetricsRead, opsMetrics } from '../../../../clients/typescript/index.js';
import { useConsole } from '../../app-context.js';
import { Problem } from '../../ui/problem.js';
import { Loading, Time, withQuery } from '../../ui/table.js';
import type { Chart, Line } from './charts.js';

/** Readings kept: an hour at the default pace; older ones leave the charts' left edge. */
export const MAX_READINGS = 240;
const DEFAULT_EVERY_SECONDS = 15;
const PACES = [5, 15, 30, 60];

/**
 * The charts' module, a build entry of its own (charts.js beside app.js): fetched the first time
 * a chart draws, never by the first screen. Its URL is computed so that esbuild leaves the
 * `import()` alone instead of bundling uPlot into app.js.
 */
const chartsUrl = new URL('charts.js', import.meta.url).href;
let chartsModule: Promise<typeof import('./charts.js')> | undefined;
const loadCharts = () => (chartsModule ??= import(chartsUrl));

/**
 * The operational view (platform admins): `GET /ops/metrics` read every N seconds while the tab
 * is visible (`?every=N`, and "Refresh now"), charted. The API answers the current values only,
 * so the series are the readings this page took since it opened, kept in the page.
 */
export function OperationsScreen() {
  const { client, can } = useConsole();
  const { query } = useLocation();
  const allowed = can('platform.admin');
  const every = pace(query.every);
  const [readings, setReadings] = useState<OpsMetricsRead[]>([]);
  const [error, setError] = useState<unknown>();
  const [hidden, setHidden] = useState(() => document.visibilityState === 'hidden');
  const pending = useRef(false);

  const refresh = useCallback(async () => {
    // A slow answer is not asked for twice: the next tick after it comes back asks again.
    if (pending.current) return;
    pending.current = true;
    try {
      const { data } = await opsMetrics({ client });
      setReadings((was) => [...was, data].slice(-MAX_READINGS));
      setError(undefined);
    } catch (e) {
      setError(e);
    } finally {
      pending.current = false;
    }
  }, [client]);

  useEffect(() => {
    if (!allowed) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    // Polls only while the tab is visible; back in view, a reading at once, then the pace again.
    const follow = () => {
      clearInterval(timer);
      timer = undefined;
      const isHidden = document.visibilityState === 'hidden';
      setHidden(isHidden);
      if (isHidden) return;
      void refresh();
      timer = setInterval(() => void refresh(), every * 1000);
    };
    follow();
    document.addEventListener('visibilitychange', follow);
    return () => {
      document.removeEventListener('visibilitychange', follow);
      clearInterval(timer);
    };
  }, [allowed, every, refresh]);

  if (!allowed)
    return (
      <section aria-labelledby="title">
        <h1 id="title">Operations</h1>
        <p class="empty">
          The operational view (queues, dead letters, outbox, open review items of every tenant) is for
          platform administrators only; your role does not see it.
        </p>
      </section>
    );

  const last = readings.at(-1);
  return (
    <section aria-labelledby="title" class="operations">
      <h1 id="title">Operations</h1>
      <p class="muted">
        The delivery machinery of every tenant, from <code>GET /ops/metrics</code>. It answers the current
        values only: these charts are drawn in this page from the readings it took since it opened (the last{' '}
        {MAX_READINGS} kept), and start again when it is reloaded.
      </p>
      <div class="filters">
        <label>
          Read every <PaceSelect every={every} />
        </label>
        <button type="button" onClick={() => void refresh()}>
          Refresh now
        </button>
        <span role="status" data-testid="readings">
          {readings.length} {readings.length === 1 ? 'reading' : 'readings'}
          {last ? (
            <>
              , the last at <Time at={last.generated_at} seconds />
            </>
          ) : null}
          {hidden ? '; paused while this tab is hidden' : ''}
        </span>
      </div>
      {error ? <Problem error={error} /> : null}
      {last ? <Charts readings={readings} last={last} /> : error ? null : <Loading />}
    </section>
  );
}

/** `?every=N` seconds, at least 1 (the test's pace) and at most an hour. */
function pace(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 3600 ? n : DEFAULT_EVERY_SECONDS;
}

function PaceSelect({ every }: { every: number }) {
  const { route } = useLocation();
  const options = PACES.includes(every) ? PACES : [...PACES, every].sort((a, b) => a - b);
  return (
    <select
      value={String(every)}
      onChange={(e) =>
        route(
          withQuery({
            every:
              e.currentTarget.value === String(DEFAULT_EVERY_SECONDS) ? undefined : e.currentTarget.value,
          }),
          true,
        )
      }
    >
      {options.map((s) => (
        <option key={s} value={String(s)}>
          {s} s
        </option>
      ))}
    </select>
  );
}

interface Figure extends Line {
  value(r: OpsMetricsRead): number | null;
}

interface ChartDef {
  id: string;
  title: string;
  figures: Figure[];
  /** A sentence under the table (what the numbers mean, what the chart leaves out). */
  note?: (last: OpsMetricsRead) => string;
}

const queue = (r: OpsMetricsRead, name: string) => r.queues.find((q) => q.name === name);

/** The four charts, their lines named after the latest reading's queues and review kinds. */
function chartsOf(last: OpsMetricsRead): ChartDef[] {
  const names = last.queues.map((q) => q.name);
  return [
    {
      id: 'queues',
      title: 'Queue depths',
      figures: names.flatMap((name, i) => [
        { label: `${name}: waiting`, color: i, value: (r) => queue(r, name)?.visible ?? null },
        {
          label: `${name}: in flight`,
          color: i,
          dashed: true,
          value: (r) => queue(r, name)?.in_flight ?? null,
        },
      ]),
    },
    {
      id: 'dead-letters',
      title: 'Dead letters',
      figures: names.map((name, i) => ({
        label: `${name} DLQ`,
        color: i,
        value: (r) => queue(r, name)?.dlq_depth ?? null,
      })),
    },
    {
      id: 'outbox',
      title: 'Outbox backlog',
      figures: [{ label: 'pending events', color: 0, value: (r) => r.outbox.pending }],
      note: (r) =>
        r.outbox.oldest_age_seconds === null
          ? 'Nothing is waiting for the relay.'
          : `The oldest has waited ${r.outbox.oldest_age_seconds} s.`,
    },
    {
      id: 'review',
      title: 'Open review items by kind',
      figures: Object.keys(last.review_items_open).map((kind, i) => ({
        label: kind.replaceAll('_', ' '),
        color: i,
        value: (r) => r.review_items_open[kind] ?? null,
      })),
    },
  ];
}

function Charts({ readings, last }: { readings: OpsMetricsRead[]; last: OpsMetricsRead }) {
  const times = readings.map((r) => Date.parse(r.generated_at) / 1000);
  return (
    <div class="charts">
      {chartsOf(last).map((def) => {
        const series = def.figures.map((f) => readings.map(f.value));
        return (
          <section class="chart-card" aria-labelledby={`chart-${def.id}`} key={def.id}>
            <h2 id={`chart-${def.id}`}>{def.title}</h2>
            <ChartCanvas lines={def.figures} data={[times, ...series]} />
            {/* The canvas says nothing to a screen reader: this table is its text alternative. */}
            <table class="list values" data-testid={`metric-${def.id}`}>
              <caption class="visually-hidden">
                {def.title}: the latest reading and the highest since this page opened
              </caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col" class="num">
                    Now
                  </th>
                  <th scope="col" class="num">
                    Highest seen
                  </th>
                </tr>
              </thead>
              <tbody>
                {def.figures.map((f, i) => (
                  <tr key={f.label} data-line={f.label}>
                    <th scope="row">
                      <span
                        class={`swatch series-${f.color}${f.dashed ? ' dashed' : ''}`}
                        aria-hidden="true"
                      />
                      {f.label}
                    </th>
                    <td class="num now">{f.value(last) ?? '–'}</td>
                    <td class="num">{highest(series[i]!)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {def.note ? <p class="muted">{def.note(last)}</p> : null}
          </section>
        );
      })}
    </div>
  );
}

const highest = (values: (number | null)[]) =>
  values.reduce<number | null>((m, v) => (v === null ? m : m === null ? v : Math.max(m, v)), null) ?? '–';

/**
 * One uPlot chart, drawn once its module has loaded and given each new reading; sized to its box
 * (a phone's width or a desktop column). Hidden from assistive technology: the table beside it
 * carries the same numbers.
 */
function ChartCanvas({ lines, data }: { lines: Line[]; data: [number[], ...(number | null)[][]] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | undefined>(undefined);
  const latest = useRef(data);
  latest.current = data;
  const [failed, setFailed] = useState<unknown>();
  // A new set of lines (a queue or a kind appeared) is a new chart; a new reading is new data.
  const shape = lines.map((l) => l.label).join('\n');

  useEffect(() => {
    const el = box.current!;
    let gone = false;
    loadCharts()
      .then(({ drawChart }) => drawChart(el, lines, latest.current, el.clientWidth))
      .then((drawn) => {
        if (gone) return drawn.destroy();
        chart.current = drawn;
        drawn.update(latest.current);
      }, setFailed);
    const resized = new ResizeObserver(() => chart.current?.resize(el.clientWidth));
    resized.observe(el);
    return () => {
      gone = true;
      resized.disconnect();
      chart.current?.destroy();
      chart.current = undefined;
    };
  }, [shape]);
  useEffect(() => chart.current?.update(data), [data]);

  return (
    <>
      <div class="chart" ref={box} aria-hidden="true" />
      {failed ? <Problem error={failed} /> : null}
    </>
  );
}
