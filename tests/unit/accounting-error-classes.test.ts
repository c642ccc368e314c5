import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyTargetStatus, ERROR_CLASSES, errorClass } from '#shared/domain/accounting/error-classes';

const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

describe('the accounting export error classes', () => {
  it('docs/api.md section 9.2 quotes the table row by row', () => {
    const start = doc.indexOf('| code | when | retryable | outcome unknown |');
    const rows = doc
      .slice(start)
      .split('\n')
      .slice(2)
      .filter((line, i, all) => line.startsWith('| ') && all.slice(0, i).every((l) => l.startsWith('| ')));
    const yes = (b: boolean) => (b ? 'yes' : 'no');
    expect(rows).toEqual(
      ERROR_CLASSES.map(
        (c) => `| \`${c.code}\` | ${c.when} | ${yes(c.retryable)} | ${yes(c.outcomeUnknown)} |`,
      ),
    );
  });

  it.each([
    [199, 'target_rejected'],
    [200, undefined],
    [201, undefined],
    [299, undefined],
    [300, 'target_rejected'],
    [429, 'rate_limited'],
    [500, 'target_unavailable'],
    [503, 'target_unavailable'],
    [599, 'target_unavailable'],
    [499, 'target_rejected'],
    [400, 'validation_rejected'],
    [422, 'validation_rejected'],
    [401, 'auth_failed'],
    [403, 'auth_failed'],
    [404, 'target_rejected'],
    [409, 'target_rejected'],
  ])('HTTP %i is %s', (status, code) => {
    expect(classifyTargetStatus(status)).toBe(code);
  });

  it('timeouts, 429, 5xx and a payment waiting for its invoice are retryable; validation and auth are permanent', () => {
    const retryable = ERROR_CLASSES.filter((c) => c.retryable).map((c) => c.code);
    expect(retryable).toEqual([
      'timeout',
      'network_error',
      'rate_limited',
      'daily_limit_reached',
      'target_unavailable',
      'invoice_not_booked',
    ]);
  });

  it('the outcome is unknown after no answer, a server error, or an unresolved earlier call', () => {
    expect(ERROR_CLASSES.filter((c) => c.outcomeUnknown).map((c) => c.code)).toEqual([
      'timeout',
      'network_error',
      'target_unavailable',
      'outcome_unknown',
    ]);
    expect(errorClass('rate_limited')).toEqual({
      code: 'rate_limited',
      when: '429 Too Many Requests (the next attempt waits at least its Retry-After)',
      retryable: true,
      outcomeUnknown: false,
    });
  });
});
