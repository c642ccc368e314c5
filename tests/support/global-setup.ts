import { readFile, rm, writeFile } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { type DynamoLocal, startDynamoLocal } from '#local/dynamodb-local';

/**
 * One DynamoDB Local for the whole run (it takes a few seconds to start); every test file
 * creates its own table in it, so files never see each other's data.
 */
let dynamo: DynamoLocal | undefined;

export async function setup(project: TestProject) {
  dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
  await reportOpenApiCoverage();
}

/**
 * How many of the documented (operation, status) pairs the e2e answers exercised
 * (tests/support/openapi-check.ts records them). Printed when any were; written as JSON to
 * `OPENAPI_COVERAGE_REPORT` when set. `OPENAPI_COVERAGE=<file>` accumulates over several runs.
 */
async function reportOpenApiCoverage() {
  const { coverageFile, documentedPairs } = await import('./openapi-check');
  const file = coverageFile(process.pid);
  const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  if (lines.length === 0) return;
  if (!process.env.OPENAPI_COVERAGE) await rm(file, { force: true });
  const key = (p: { operation: string; status: number }) => `${p.operation} ${p.status}`;
  const seen = new Set(lines.map((l) => key(JSON.parse(l) as { operation: string; status: number })));
  const documented = documentedPairs().map(key);
  const covered = documented.filter((k) => seen.has(k));
  const operations = new Set(covered.map((k) => k.split(' ')[0]));
  const summary = {
    answers_checked: lines.length,
    pairs_documented: documented.length,
    pairs_seen: covered.length,
    operations_seen: operations.size,
    operations_documented: new Set(documented.map((k) => k.split(' ')[0])).size,
    never_seen: documented.filter((k) => !seen.has(k)),
  };
  console.log(
    `OpenAPI coverage: ${summary.pairs_seen} of ${summary.pairs_documented} documented (operation, status) pairs seen in ${summary.answers_checked} checked answers; ${summary.operations_seen} of ${summary.operations_documented} operations`,
  );
  if (process.env.OPENAPI_COVERAGE_REPORT)
    await writeFile(process.env.OPENAPI_COVERAGE_REPORT, `${JSON.stringify(summary, null, 2)}\n`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
