/**
 * One cold start: a fresh Node process loads a bundled handler (CJS via require, ESM via
 * import) and serves one event, as the Lambda runtime does. Started by bench/run.ts with the
 * environment Lambda sets; prints one result line to stderr:
 *   BENCH {"load": ms, "first": ms, "total": ms, "cpu": ms, "status": n}
 * `total` counts from the process's time origin, so it includes Node's own start-up. `cpu` is the
 * CPU time (user + system) of load and first request together: unlike the wall-clock figures it
 * hardly moves when other processes compete for the cores.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const started = performance.now();
const cpuStarted = process.cpuUsage();
const { file, event } = JSON.parse(process.env.BENCH_COLD ?? '{}');
delete process.env.BENCH_COLD;
const mod = file.endsWith('.mjs')
  ? await import(pathToFileURL(file).href)
  : createRequire(import.meta.url)(file);
const loaded = performance.now();
const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
  memoryLimitInMB: '1024',
  awsRequestId: 'cold',
  logGroupName: 'bench',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 30_000,
};
const result = await mod.handler(event, context);
const done = performance.now();
const cpu = process.cpuUsage(cpuStarted);
process.stderr.write(
  `BENCH ${JSON.stringify({ load: loaded - started, first: done - loaded, total: done, cpu: (cpu.user + cpu.system) / 1000, status: result?.statusCode ?? 0 })}\n`,
);
process.exit(0);
