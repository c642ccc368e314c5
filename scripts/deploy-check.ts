import { readFileSync } from 'node:fs';
import { judgeLint, readLintAcks, runCfnLint } from './lib/cfn-lint';
import { CHANGELOG, LINT_ACKS, readReleased, synthTemplates, writeReleased } from './lib/deploy-templates';
import { describeLoss, migrationsNamed, statefulLosses } from './lib/stateful-diff';

/**
 * `npm run deploy:check` (and so `npm run deploy`, before `cdk deploy`): the checks
 * tests/infra/deploy-checks.test.ts runs in `npm test`, on a fresh synthesis, with a report:
 * cfn-lint on every template, and the stateful resources a deploy over the last release would
 * replace or remove. Exit status 1 when either refuses (docs/deploy.md, "Checks before a deploy").
 *
 * `npm run release:templates`: cuts a release: today's templates become the kept ones
 * (`releases/templates/`), at the package's version.
 */

const { templates, files } = synthTemplates();

if (process.argv.includes('--release')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  writeReleased(templates, version);
  console.log(`releases/templates/ now holds ${Object.keys(templates).join(', ')} at version ${version}`);
} else {
  let failed = false;
  const lint = judgeLint(await runCfnLint(files), readLintAcks(LINT_ACKS));
  for (const line of lint.refused) console.log(`cfn-lint: ${line}`);
  for (const a of lint.stale)
    console.log(`cfn-lint: acknowledgement of ${a.rule} silences nothing: remove it`);
  console.log(
    `cfn-lint: ${lint.refused.length} refused, ${lint.silenced.reduce((a, b) => a + b, 0)} acknowledged`,
  );
  failed ||= lint.refused.length > 0 || lint.stale.length > 0;

  const released = readReleased();
  const named = migrationsNamed(readFileSync(CHANGELOG, 'utf8'), released.version);
  const losses = statefulLosses(released.templates, templates);
  for (const l of losses)
    console.log(`${named.has(l.logicalId) ? 'migration named' : 'REFUSED'}  ${describeLoss(l)}`);
  const refused = losses.filter((l) => !named.has(l.logicalId));
  console.log(
    `stateful resources against release ${released.version}: ${losses.length} replaced or removed, ${refused.length} without a migration in CHANGELOG.md`,
  );
  failed ||= refused.length > 0;
  process.exitCode = failed ? 1 : 0;
}
