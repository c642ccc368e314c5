import uPlot from 'uplot';
import { PALETTE } from './palette.js';

/**
 * The operational view's charts: uPlot behind three calls. Built as its own entry, `charts.js`
 * (scripts/lib/console-build.ts), that the screen loads by `import()` when it first draws, so
 * the first screen does not carry uPlot. It must import nothing of the app's (Preact above all:
 * a second copy of Preact beside app.js's would break the hooks).
 */

export interface Line {
  label: string;
  /** An index into PALETTE. */
  color: number;
  /** Dashed: told apart from a line of the same colour (one queue's two figures) by more than colour. */
  dashed?: boolean;
}

export interface Chart {
  /** x: seconds since the epoch; one array of values per line, null where a reading lacked it. */
  update(data: uPlot.AlignedData): void;
  resize(width: number): void;
  destroy(): void;
}

/**
 * uPlot's stylesheet (the overlay's positioning), linked once from the console's own origin: the
 * CSP's `style-src 'self'` allows it, and uPlot itself styles its elements through the CSSOM
 * (`element.style.x = ...`), which the CSP does not govern, never by a style attribute or a
 * <style> element.
 */
const stylesheet = new Promise<void>((resolve) => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('uplot.css', import.meta.url).href;
  // Drawn either way: without the sheet only the hover overlay sits out of place.
  link.onload = link.onerror = () => resolve();
  document.head.append(link);
});

const HEIGHT = 180;

export async function drawChart(
  target: HTMLElement,
  lines: Line[],
  data: uPlot.AlignedData,
  width: number,
): Promise<Chart> {
  await stylesheet;
  const axis = { stroke: '#57606a', grid: { stroke: '#eaeef2' }, ticks: { stroke: '#d0d7de' } };
  const plot = new uPlot(
    {
      width,
      height: HEIGHT,
      // The screen's table beside each chart names the lines and their values.
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        // The readings' own span; the first reading alone in a minute around it (uPlot would
        // stretch a single x over years).
        x: { time: true, range: (_u, min, max) => (max > min ? [min, max] : [min - 30, max + 30]) },
        // Counts from zero, at least 0-4 so that a flat zero reads as zero and not as noise.
        y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
      },
      axes: [
        { ...axis, space: 80 },
        { ...axis, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10_000, 100_000] },
      ],
      series: [
        {},
        ...lines.map((line) => ({
          label: line.label,
          stroke: PALETTE[line.color % PALETTE.length],
          width: 2,
          ...(line.dashed ? { dash: [6, 4] } : {}),
          points: { size: 5 },
        })),
      ],
    },
    data,
    target,
  );
  return {
    update: (next) => plot.setData(next),
    resize: (w) => plot.setSize({ width: w, height: HEIGHT }),
    destroy: () => plot.destroy(),
  };
}
