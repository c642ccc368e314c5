import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The operator's count of open review items (docs/api.md section 9.6) reads a sparse index only
 * open items carry, and `storedReviewItem` is what sets its keys. A store of any kind that wrote a
 * review item with the bare entity builder would drop its open items from the count silently, as
 * the integration-issue and accounting-export stores once did.
 */
describe('review item writes', () => {
  it('every store writes review items through storedReviewItem, never the bare entity builder', () => {
    const dir = 'functions/adapters';
    const offenders = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /\breviewItem\.item\(/.test(readFileSync(join(dir, f), 'utf8')));
    expect(offenders).toEqual([]);
    const writers = readdirSync(dir).filter((f) =>
      readFileSync(join(dir, f), 'utf8').includes('storedReviewItem('),
    );
    expect(writers.length).toBeGreaterThanOrEqual(5);
  });
});
