import { describe, expect, it } from 'vitest';
import { bundleFloor, bundleFunction } from '../../../bench/lib/bundle';
import { discoverFunctions } from '../../../bench/lib/functions';

/**
 * Budget: every API function's minified bundle (infra/bundling.ts options) is at most 1.30x its
 * SDK-only floor (the SDK clients and commands it imports, bundled alone). Functions are
 * discovered from GROUPS, so a new route group is budgeted without editing this file.
 *
 * 1.30, not the earlier 1.25: above a floor of about 340 KB, the required Powertools Logger and
 * Metrics (33 KB), zod/mini (28 KB) and middy (4 KB) take about 65 KB before any code of the
 * service's own, which left 20 KB for a whole route group (docs/performance.md).
 */
const BUDGET = 1.3;

/** public uses no SDK client: it must not bundle one, and stays under an absolute size. */
const PUBLIC_MAX_BYTES = 400_000;

const api = discoverFunctions().filter((f) => f.kind === 'api');

describe('bundle size vs SDK-only floor', () => {
  for (const fn of api) {
    it(`${fn.name} <= ${BUDGET}x its floor`, async () => {
      const bundle = await bundleFunction(fn.entry);
      if (bundle.sdkImports.size === 0) {
        expect(bundle.breakdown.filter(([k]) => k.startsWith('@aws-sdk/'))).toEqual([]);
        expect(bundle.bytes).toBeLessThanOrEqual(PUBLIC_MAX_BYTES);
        return;
      }
      const floor = await bundleFloor(bundle.sdkImports);
      const ratio = bundle.bytes / floor.bytes;
      expect(ratio, `${bundle.bytes} B vs floor ${floor.bytes} B`).toBeLessThanOrEqual(BUDGET);
    }, 30_000);
  }
});
