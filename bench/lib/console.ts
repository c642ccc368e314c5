import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './functions';

/**
 * The environment as the bench found it: run.ts later sets the bench functions' table, queues and
 * endpoints in process.env, which the console's own runtime must not take for its settings.
 */
const STARTING_ENV = { ...process.env };

/** The console's budgets (issue 34): bytes of the first screen, the list usable, 100 rows drawn. */
export const CONSOLE_BUDGET = {
  firstScreenGzipKB: 120,
  exceptionsUsableMs: 1000,
  rowsRenderedMs: 100,
} as const;

export interface ConsoleFigures {
  firstScreen: { files: Record<string, { bytes: number; gzipBytes: number }>; gzipKB: number };
  exceptionsUsableMs: { median: number; samples: number[] };
  rowsRenderedMs: { rows: number; median: number; samples: number[] };
  rowsInDomMs: { median: number; samples: number[] };
  loadAverage: { start: number; end: number };
  budgets: typeof CONSOLE_BUDGET;
  withinBudget: { firstScreen: boolean; exceptionsUsable: boolean; rowsRendered: boolean };
}

/**
 * The console part of `npm run bench`: bench/console.ts in a process of its own (it starts a local
 * runtime, whose handlers read their configuration once per process, and a browser), its JSON.
 */
export function measureConsole(): Promise<ConsoleFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench/console.ts')], {
      cwd: REPO_ROOT,
      env: STARTING_ENV,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench/console.ts exited ${code}`));
      try {
        resolve(JSON.parse(out) as ConsoleFigures);
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

export const consoleLines = (c: ConsoleFigures): string[] => {
  const mark = (ok: boolean) => (ok ? 'within budget' : 'OVER BUDGET');
  return [
    'Operator console (issue 34)',
    `  first screen JS+CSS+HTML gzipped  ${c.firstScreen.gzipKB} KB   (budget ${c.budgets.firstScreenGzipKB} KB: ${mark(c.withinBudget.firstScreen)})`,
    `  exceptions list usable            ${c.exceptionsUsableMs.median} ms median of ${c.exceptionsUsableMs.samples.length}   (budget ${c.budgets.exceptionsUsableMs} ms: ${mark(c.withinBudget.exceptionsUsable)})`,
    `  ${c.rowsRenderedMs.rows} rows rendered after data       ${c.rowsRenderedMs.median} ms median of ${c.rowsRenderedMs.samples.length}   (budget ${c.budgets.rowsRenderedMs} ms: ${mark(c.withinBudget.rowsRendered)}); in the DOM after ${c.rowsInDomMs.median} ms, the rest the wait for the next frame`,
    `  load average (1 min) ${c.loadAverage.start} -> ${c.loadAverage.end}`,
  ];
};
