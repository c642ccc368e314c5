import type { AdapterContractRead, ConnectionSchedule } from '../../../../clients/typescript/index.js';

const HOUR = 3_600_000;

/**
 * docs/api.md 9.3, **Health**: a connection without a schedule is expected to succeed once a day
 * (accounting, bank feed, CRM) or a week (notification channels, which a quiet tenant may not use).
 * The same numbers as the API's own (shared/domain/integrations/catalog.ts), written again here
 * because the console is type-checked for the browser and that module's imports are Node's;
 * tests/e2e/console/integrations.test.ts holds the two equal.
 */
export const CATEGORY_EVERY_HOURS: Record<AdapterContractRead['category'], number> = {
  notification: 7 * 24,
  accounting: 24,
  bank_feed: 24,
  crm: 24,
};

/** `45 min`, `3 h`, `2 d`: a span said the way an operator reads it at a glance. */
export function span(ms: number): string {
  if (ms < HOUR) return `${Math.max(1, Math.round(ms / 60_000))} min`;
  // 1.5 h is late against an hour, 2 h is not yet stale: below 10 hours the half hours count.
  if (ms < 10 * HOUR) return `${Math.round((ms / HOUR) * 10) / 10} h`;
  if (ms < 48 * HOUR) return `${Math.round(ms / HOUR)} h`;
  return `${Math.round(ms / (24 * HOUR))} d`;
}

/**
 * How often the connection is expected to succeed, as the API's health rule counts it
 * (docs/api.md 9.3, **Health**): its most frequent scheduled run, else its category's interval
 * (a day for accounting, bank feeds and CRM; a week for notification channels).
 */
export function expectedEveryMs(
  schedule: ConnectionSchedule | null | undefined,
  category: AdapterContractRead['category'] | undefined,
): number | undefined {
  const scheduled = [schedule?.diagnostics_every_hours, schedule?.reconciliation_every_hours].filter(
    (h): h is number => typeof h === 'number',
  );
  if (scheduled.length > 0) return Math.min(...scheduled) * HOUR;
  return category ? CATEGORY_EVERY_HOURS[category] * HOUR : undefined;
}

export type Freshness = { kind: 'fresh' | 'late' | 'stale' | 'never'; text: string };

/**
 * The last success against the expected interval, in the API's own thresholds: within it fresh,
 * past it late, past twice it stale. Counted from the browser's clock at render time; the API's
 * `health.state` says the same from the service's clock.
 */
export function freshness(
  lastSuccessAt: string | null,
  everyMs: number | undefined,
  now: number = Date.now(),
): Freshness {
  const every = everyMs === undefined ? '' : `, expected every ${span(everyMs)}`;
  if (!lastSuccessAt) return { kind: 'never', text: `never succeeded${every}` };
  const age = Math.max(0, now - Date.parse(lastSuccessAt));
  const kind = everyMs === undefined || age <= everyMs ? 'fresh' : age <= 2 * everyMs ? 'late' : 'stale';
  return { kind, text: `${kind}: last success ${span(age)} ago${every}` };
}
