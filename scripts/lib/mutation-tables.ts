import { table } from './generated-blocks';

/**
 * The mutation scores of docs/testing.md, from the incremental record StrykerJS keeps
 * (reports/stryker-incremental.json, the mutation-testing-report-schema): one row per folder of
 * the scope, as `npm run docs:testing` writes them into the page.
 */

export interface MutationRecord {
  files: Record<string, { mutants: { status: string }[] }>;
}

const DETECTED = new Set(['Killed', 'Timeout']);

/** A domain folder's files by folder; every other file by its folder under functions/, or alone. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (file.startsWith('shared/domain/'))
    return parts.length > 3 ? `${parts.slice(0, 3).join('/')}/` : 'shared/domain/*.ts';
  return parts.length > 2 ? `${parts.slice(0, 2).join('/')}/` : file;
}

interface Counts {
  files: number;
  detected: number;
  survived: number;
  noCoverage: number;
  timeouts: number;
}

/** Stryker's mutation score: detected / (detected + undetected); errors and ignored mutants count in neither. */
const score = (c: Counts) => {
  const valid = c.detected + c.survived + c.noCoverage;
  return valid ? `${((100 * c.detected) / valid).toFixed(1)}%` : '-';
};
const covered = (c: Counts) => {
  const valid = c.detected + c.survived;
  return valid ? `${((100 * c.detected) / valid).toFixed(1)}%` : '-';
};

export function mutationTables(record: MutationRecord): Record<string, string> {
  const byFolder = new Map<string, Counts>();
  const total: Counts = { files: 0, detected: 0, survived: 0, noCoverage: 0, timeouts: 0 };
  for (const [file, { mutants }] of Object.entries(record.files)) {
    const folder = folderOf(file);
    const c = byFolder.get(folder) ?? { files: 0, detected: 0, survived: 0, noCoverage: 0, timeouts: 0 };
    for (const counts of [c, total]) {
      counts.files += 1;
      for (const m of mutants) {
        if (DETECTED.has(m.status)) counts.detected += 1;
        if (m.status === 'Timeout') counts.timeouts += 1;
        if (m.status === 'Survived') counts.survived += 1;
        if (m.status === 'NoCoverage') counts.noCoverage += 1;
      }
    }
    byFolder.set(folder, c);
  }
  const row = (name: string, c: Counts) => [
    name,
    c.files,
    score(c),
    covered(c),
    c.detected.toLocaleString('en-US'),
    c.timeouts,
    c.survived,
    c.noCoverage,
  ];
  const rows = [...byFolder.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, c]) => row(`\`${name}\``, c));
  rows.push(row('**whole scope**', total));
  return {
    'mutation-scores': table(
      [
        'Folder',
        'Files',
        'Score',
        'Of covered',
        'Killed (with timeouts)',
        'Timeouts',
        'Survived',
        'No coverage',
      ],
      'lrrrrrrr',
      rows,
    ),
  };
}
