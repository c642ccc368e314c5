import { describe, expect, it } from 'vitest';
import { bundleFunction } from '../../../bench/lib/bundle';
import { LOCAL_CLOCK_PATH } from '#local/clock';
import { synthService } from '#tests/infra/synth';

/**
 * The local clock route (`POST /_local/clock`), the manual clock and the AWS call recorder of the
 * roles check (local/call-record.ts) exist only in the local runtime: every function the CDK app
 * deploys, bundled as it deploys it, carries neither the route, nor the settings that enable
 * them, nor the recorder's middleware, nor any module of local/.
 */
const deployed = synthService().stateless.functions.map((f) => [f.shortName, f.entry] as const);

describe('cloud bundles carry nothing of the local runtime', () => {
  it('covers every deployed function', () => {
    expect(deployed.map(([name]) => name)).toEqual(
      expect.arrayContaining(['api-tasks', 'timer-sweeper', 'worker-internal', 'outbox-relay']),
    );
  });

  it.each(deployed)(
    '%s: no /_local/clock, no OPS_LOCAL_CLOCK, no call recorder, no local/ module',
    async (_name, entry) => {
      const bundle = await bundleFunction(entry);
      const inputs = Object.keys(bundle.metafile.inputs);
      expect(inputs.filter((i) => i.startsWith('local/'))).toEqual([]);
      for (const text of [
        LOCAL_CLOCK_PATH,
        'OPS_LOCAL_CLOCK',
        'ManualClock',
        'OPS_AWS_CALL_LOG',
        'recordAwsCalls',
      ])
        expect(bundle.code.includes(text), `${text} in the bundle`).toBe(false);
    },
    60_000,
  );
});
