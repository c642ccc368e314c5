import { loadavg } from 'node:os';
import { startDynamoLocal } from '#local/dynamodb-local';
import { measureWebhooks } from './lib/webhooks';

/**
 * The webhooks part of `npm run bench` on its own (`npx tsx bench/webhooks.ts`): fan-out, delivery
 * latency on the local runtime, and fairness beside a hanging endpoint (bench/lib/webhooks.ts has
 * the method and the settings). Prints the figures as JSON; `BENCH_PARTS=webhooks npm run bench`
 * also records them in bench/results.json.
 */
const load = () => loadavg().map((l) => Number(l.toFixed(2)));
const dynamo = await startDynamoLocal({});
try {
  const loadAtStart = load();
  const figures = await measureWebhooks(dynamo.endpoint);
  console.log(JSON.stringify({ ...figures, loadAverage: { start: loadAtStart, end: load() } }, null, 2));
} finally {
  await dynamo.stop();
}
