/**
 * bench/results.json across runs: a run of some parts (`BENCH_PARTS=webhooks`) replaces only
 * their figures and keeps the others' as they were measured, each part with when it was measured
 * and the machine's load then (`measuredAt`), since a figure means little without its load.
 */

export const ALL_PARTS = [
  'routes',
  'cold',
  'levers',
  'delivery',
  'lists',
  'peer',
  'webhooks',
  'fairness',
  'console',
] as const;

/** The results file's keys that hold each part's figures. */
export const PART_KEYS: Record<(typeof ALL_PARTS)[number], string[]> = {
  routes: ['routes', 'authorizer'],
  cold: ['cold'],
  levers: ['coldLevers'],
  delivery: ['delivery'],
  lists: ['lists'],
  peer: ['peer'],
  webhooks: ['webhooks'],
  fairness: ['fairness'],
  console: ['console'],
};

/** Bundles are built by every run, but their sizes belong beside the figures that used them. */
const BUNDLE_PARTS = ['routes', 'cold', 'levers', 'delivery', 'peer'];

type Results = Record<string, unknown>;
type Named = { name: string };

/**
 * A run of some functions (`BENCH_FUNCTIONS`) measures only theirs: its entries replace those of
 * the same name, the others stay as they were measured.
 */
const byName = (before: unknown, current: unknown): unknown =>
  Array.isArray(before) && Array.isArray(current)
    ? [...(before as Named[]).filter((b) => !(current as Named[]).some((c) => c.name === b.name)), ...current]
    : current;
const byKey = (before: unknown, current: unknown): unknown =>
  before && current && typeof before === 'object' && typeof current === 'object'
    ? { ...before, ...current }
    : current;
type Measured = Record<string, { at: unknown; loadAverage: unknown }>;

/**
 * The file after a run of `parts`: this run's common figures (date, bundles, load) and its parts';
 * every other part's figures and `measuredAt` from the file before, where that had them (a file
 * written before `measuredAt` existed dates them by its own date and load).
 */
export function mergeResults(previous: Results | undefined, current: Results, parts: Set<string>): Results {
  const before = previous ?? {};
  const measuredAt: Measured = { ...((before.measuredAt as Measured | undefined) ?? {}) };
  const merged: Results = { ...current };
  for (const part of ALL_PARTS) {
    const keys = PART_KEYS[part];
    if (parts.has(part)) {
      measuredAt[part] = { at: current.date, loadAverage: current.loadAverage };
      continue;
    }
    for (const key of keys) if (before[key] !== undefined) merged[key] = before[key];
    if (!measuredAt[part] && keys.some((key) => before[key] !== undefined))
      measuredAt[part] = { at: before.date, loadAverage: before.loadAverage };
  }
  if (!BUNDLE_PARTS.some((part) => parts.has(part))) {
    if (before.bundles !== undefined) merged.bundles = before.bundles;
  } else merged.bundles = byName(before.bundles, current.bundles);
  if (parts.has('cold')) merged.cold = byKey(before.cold, current.cold);
  // A run of some lists (`BENCH_LISTS`) replaces only their rows and ratios.
  if (parts.has('lists')) merged.lists = mergeLists(before.lists, current.lists);
  return { ...merged, measuredAt };
}

type Lists = { rows: { list: string }[]; ratios: Record<string, number> };

const mergeLists = (before: unknown, current: unknown): unknown => {
  const b = before as Lists | undefined;
  const c = current as Lists | undefined;
  if (!b?.rows || !c?.rows) return current;
  const measured = new Set(c.rows.map((r) => r.list));
  return {
    ...c,
    rows: [...b.rows.filter((r) => !measured.has(r.list)), ...c.rows],
    ratios: { ...b.ratios, ...c.ratios },
  };
};
