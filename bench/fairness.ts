import { measureFairness } from './lib/fairness';

/**
 * The fairness part of `npm run bench` on its own (`npx tsx bench/fairness.ts`): a quiet tenant's
 * delivery p50 alone and beside another tenant's burst, shared among groups and oldest first
 * (bench/lib/fairness.ts). Prints the figures as JSON; `BENCH_PARTS=fairness npm run bench` also
 * records them in bench/results.json.
 */
const figures = await measureFairness((msg) => process.stderr.write(`${msg}\n`));
console.log(JSON.stringify(figures, null, 2));
