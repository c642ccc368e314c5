import { type PhaseSpec, runPhase } from './lib/webhook-phase';

/**
 * One phase of the webhooks part in a process of its own (bench/lib/webhook-phase.ts says why),
 * forked by bench/lib/webhooks.ts with its spec in BENCH_WEBHOOK_PHASE; answers over IPC.
 */
const spec = JSON.parse(process.env.BENCH_WEBHOOK_PHASE ?? '') as PhaseSpec;
try {
  process.send!({ ok: true, result: await runPhase(spec) });
} catch (err) {
  process.send!({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
process.disconnect();
