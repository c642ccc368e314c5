import { judgeLint, readLintAcks, runCfnLint } from './lib/cfn-lint';
import { LINT_ACKS, synthTemplates } from './lib/deploy-templates';

/**
 * `npm run deploy:check` (and so `npm run deploy`, before `cdk deploy`): the check
 * tests/infra/deploy-checks.test.ts runs in `npm test`, on a fresh synthesis, with a report:
 * cfn-lint on every template. Exit status 1 when it refuses (docs/deploy.md, "Checks before a
 * deploy").
 */

const { files } = synthTemplates();
const lint = judgeLint(await runCfnLint(files), readLintAcks(LINT_ACKS));
for (const line of lint.refused) console.log(`cfn-lint: ${line}`);
for (const a of lint.stale) console.log(`cfn-lint: acknowledgement of ${a.rule} silences nothing: remove it`);
console.log(
  `cfn-lint: ${lint.refused.length} refused, ${lint.silenced.reduce((a, b) => a + b, 0)} acknowledged`,
);
process.exitCode = lint.refused.length > 0 || lint.stale.length > 0 ? 1 : 0;
