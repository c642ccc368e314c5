import { describe, expect, it } from 'vitest';
import { mergeResults } from '../../bench/lib/results';

/**
 * bench/results.json after a run of some parts (`BENCH_PARTS=webhooks npm run bench`): the parts
 * run replace their figures, every other part keeps its own and when it was measured.
 */
describe('bench results across partial runs', () => {
  const full = {
    date: '2026-11-26T18:44:51.503Z',
    loadAverage: { start: 3.1, end: 4.2 },
    bundles: ['old'],
    routes: ['routes of the 26th'],
    authorizer: { p50: 1 },
    cold: { x: 1 },
    delivery: { status: 'measured' },
    peer: { p: 1 },
  };
  const webhooksRun = {
    date: '2026-11-27T18:00:00.000Z',
    loadAverage: { start: 5, end: 6 },
    bundles: ['new'],
    routes: [],
    cold: {},
    delivery: { status: 'not measured: no relay function' },
    webhooks: { summary: 'w' },
  };

  it('keeps the parts not run, with the date and load of the run that measured them', () => {
    const merged = mergeResults(full, webhooksRun, new Set(['webhooks']));
    expect(merged).toMatchObject({
      date: webhooksRun.date,
      // The bundles beside the cold and route figures they belong to.
      bundles: ['old'],
      routes: full.routes,
      authorizer: full.authorizer,
      cold: full.cold,
      delivery: full.delivery,
      peer: full.peer,
      webhooks: webhooksRun.webhooks,
    });
    expect(merged.measuredAt).toEqual({
      routes: { at: full.date, loadAverage: full.loadAverage },
      cold: { at: full.date, loadAverage: full.loadAverage },
      delivery: { at: full.date, loadAverage: full.loadAverage },
      peer: { at: full.date, loadAverage: full.loadAverage },
      webhooks: { at: webhooksRun.date, loadAverage: webhooksRun.loadAverage },
    });
    // A later run of another part keeps the webhooks' own date.
    const later = mergeResults(
      merged,
      { ...webhooksRun, date: 'later', routes: ['new routes'] },
      new Set(['routes']),
    );
    expect(later).toMatchObject({ routes: ['new routes'], bundles: ['new'], webhooks: webhooksRun.webhooks });
    expect((later.measuredAt as Record<string, { at: string }>).webhooks!.at).toBe(webhooksRun.date);
    expect((later.measuredAt as Record<string, { at: string }>).routes!.at).toBe('later');
  });

  it('a run of some functions replaces their bundles and cold figures and keeps the others', () => {
    const before = {
      ...full,
      bundles: [
        { name: 'api-tasks', bytes: 1 },
        { name: 'relay', bytes: 2 },
      ],
      cold: { 'api-tasks': { ratio: 1.2 }, relay: { ratio: 1.05 } },
    };
    const run = {
      ...webhooksRun,
      bundles: [{ name: 'relay', bytes: 3 }],
      cold: { relay: { ratio: 1.08 } },
    };
    const merged = mergeResults(before, run, new Set(['cold']));
    expect(merged.bundles).toEqual([
      { name: 'api-tasks', bytes: 1 },
      { name: 'relay', bytes: 3 },
    ]);
    expect(merged.cold).toEqual({ 'api-tasks': { ratio: 1.2 }, relay: { ratio: 1.08 } });
    // A run without cold keeps the cold figures whole.
    expect(mergeResults(before, run, new Set(['delivery'])).cold).toEqual(before.cold);
  });

  it('writes a first file whole', () => {
    expect(mergeResults(undefined, webhooksRun, new Set(['webhooks']))).toMatchObject(webhooksRun);
  });
});
