import { describe, expect, it } from 'vitest';
import { exportWindowTimer, windowOpensAt } from '#shared/domain/accounting/export-window';

/**
 * The daily limit's wait (docs/api.md section 9.2, "daily_limit_reached"): the export looks again
 * when the provider's Retry-After says the next window opens, or after the fallback hour when the
 * provider gave none, under an `export_window` timer of its own.
 */

const AT = '2031-04-01T22:15:00.000Z';

describe('the export window', () => {
  it("opens after the provider's Retry-After", () => {
    expect(windowOpensAt(AT, 6300)).toBe('2031-04-02T00:00:00.000Z');
    expect(windowOpensAt(AT, 1)).toBe('2031-04-01T22:15:01.000Z');
  });

  it('opens after the fallback hour when the provider gave no wait', () => {
    for (const none of [0, -30]) expect(windowOpensAt(AT, none)).toBe('2031-04-01T23:15:00.000Z');
  });

  it('is one timer per export, replaced when armed again, due when the window opens', () => {
    const e = { id: 'exp-1', tenant_id: 't-1' };
    expect(exportWindowTimer(e, '2031-04-02T00:00:00.000Z')).toEqual({
      id: 'export_window:exp-1',
      tenant_id: 't-1',
      kind: 'export_window',
      subject_type: 'accounting_export',
      subject_id: 'exp-1',
      due_at: '2031-04-02T00:00:00.000Z',
    });
  });
});
