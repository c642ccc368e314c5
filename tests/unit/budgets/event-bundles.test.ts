import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleFunction } from '../../../bench/lib/bundle';
import { REPO_ROOT } from '../../../bench/lib/functions';

/**
 * The event manifest (shared/kernel/events.ts) is plain data so that the functions that only
 * route events stay lean: the relay and the sweeper bundle the manifest and none of the code that
 * handles an event (no worker, no use case), and each worker bundles only the handlers of its own
 * queue's kinds (functions/workers/internal.ts, external.ts).
 */

const sources = async (entry: string) => {
  const bundle = await bundleFunction(join(REPO_ROOT, entry));
  return Object.keys(Object.values(bundle.metafile.outputs)[0]!.inputs).filter(
    (input) => !input.includes('node_modules'),
  );
};

describe('what the event functions bundle', () => {
  for (const entry of ['functions/relay/handler.ts', 'functions/sweeper/handler.ts']) {
    it(`${entry}: the manifest, no handler and no use case`, async () => {
      const inputs = await sources(entry);
      expect(inputs).toContain('shared/kernel/events.ts');
      expect(
        inputs.filter((i) => i.startsWith('functions/workers/') || i.startsWith('shared/domain/')),
      ).toEqual([]);
    }, 30_000);
  }

  it("each worker bundles its own queue's handlers only", async () => {
    const internal = await sources('functions/workers/internal.ts');
    const external = await sources('functions/workers/external.ts');
    expect(internal).toEqual(
      expect.arrayContaining(['functions/workers/workflows.ts', 'functions/workers/hub.ts']),
    );
    expect(internal).not.toContain('functions/workers/accounting.ts');
    // Of the accounting code, only the export request's builder: the export_window timer's firing
    // asks for a run (shared/domain/timers/export-window.ts). The OAuth reads of the
    // reconciliation name their failures with shared/kernel/http-status.ts, not the export's table.
    expect(internal.filter((i) => i.startsWith('shared/domain/accounting/'))).toEqual([
      'shared/domain/accounting/events.ts',
    ]);
    for (const exportClient of [
      'functions/adapters/xero-target.ts',
      'functions/adapters/quickbooks-target.ts',
      'functions/adapters/oauth-target-answers.ts',
    ])
      expect(internal).not.toContain(exportClient);
    expect(external).toContain('functions/workers/accounting.ts');
    expect(
      external.filter((i) =>
        /^functions\/workers\/(workflows|hub)\.ts$|^shared\/domain\/workflows\/runner/.test(i),
      ),
    ).toEqual([]);
  }, 60_000);
});
