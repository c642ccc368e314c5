import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CFN_LINT_MISSING,
  judgeLint,
  type LintAck,
  type LintFinding,
  readLintAcks,
  runCfnLint,
} from '../../scripts/lib/cfn-lint';
import { LINT_ACKS, synthTemplates } from '../../scripts/lib/deploy-templates';

/**
 * The deploy-time checks of docs/deploy.md ("Checks before a deploy"), on one synthesis of the
 * app: cfn-lint finds no error and only acknowledged warnings. The check is also shown refusing
 * what it must refuse.
 */

const synthesized = synthTemplates();
const acks = readLintAcks(LINT_ACKS);

describe('cfn-lint on every synthesized template', () => {
  let findings: LintFinding[];
  beforeAll(async () => {
    findings = await runCfnLint(synthesized.files);
  }, 120_000);

  it('lints all three stacks', () => {
    expect(Object.keys(synthesized.files).sort()).toEqual(['api-routes', 'stateful', 'stateless']);
  });

  it('finds no error and no warning that infra/cfn-lint-acknowledged.json does not acknowledge', () => {
    const verdict = judgeLint(findings, acks);
    expect(verdict.refused).toEqual([]);
    // Today: the 25 functions' DependsOn on their own role (W3005), all CDK's rendering.
    expect(verdict.silenced.reduce((a, b) => a + b, 0)).toBe(findings.length);
  });

  it('keeps no acknowledgement that silences nothing', () => {
    expect(judgeLint(findings, acks).stale).toEqual([]);
  });
});

describe('cfn-lint refuses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-lint-'));
  const write = (name: string, template: unknown) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(template));
    return file;
  };
  const files = {
    // A resource type that does not exist and a property SQS does not have: CloudFormation
    // would reject both at deploy time.
    broken: write('broken', {
      Resources: {
        Made: { Type: 'AWS::Made::Up', Properties: {} },
        Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeoutSeconds: 30 } },
      },
    }),
    // Valid, with one warning: a DependsOn the GetAtt already implies (W3005).
    warned: write('warned', {
      Resources: {
        First: { Type: 'AWS::SQS::Queue' },
        Second: {
          Type: 'AWS::SQS::Queue',
          DependsOn: ['First'],
          Properties: { QueueName: { 'Fn::Join': ['-', [{ 'Fn::GetAtt': ['First', 'QueueName'] }, 'b']] } },
        },
      },
    }),
  };
  const queueAck: LintAck = {
    rule: 'W3005',
    resourceType: 'AWS::SQS::Queue',
    message: "^'First' dependency already enforced",
    reason: 'a test acknowledgement of the one warning of the warned template, with a long enough reason',
  };
  let findings: LintFinding[];
  beforeAll(async () => {
    findings = await runCfnLint(files);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a template with an error, whatever the acknowledgements say', () => {
    const broken = findings.filter((f) => f.stack === 'broken');
    expect(broken.map((f) => [f.level, f.rule, f.resource])).toEqual(
      expect.arrayContaining([
        ['Error', 'E3006', 'Made'],
        ['Error', 'E3002', 'Queue'],
      ]),
    );
    const everything: LintAck = { ...queueAck, rule: 'E3006', resourceType: 'AWS::Made::Up', message: '' };
    const verdict = judgeLint(broken, [everything, { ...everything, rule: 'E3002' }]);
    expect(verdict.refused).toHaveLength(2);
    expect(verdict.refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Error E3006 broken\/Made: /),
        expect.stringMatching(/^Error E3002 broken\/Queue: /),
      ]),
    );
  });

  it('an unacknowledged warning, and passes it once acknowledged', () => {
    const warned = findings.filter((f) => f.stack === 'warned');
    expect(warned).toEqual([
      expect.objectContaining({
        rule: 'W3005',
        level: 'Warning',
        resource: 'Second',
        resourceType: 'AWS::SQS::Queue',
      }),
    ]);
    expect(judgeLint(warned, acks).refused).toEqual([
      expect.stringMatching(/^Warning W3005 warned\/Second: .*not acknowledged/),
    ]);
    expect(judgeLint(warned, [queueAck])).toEqual({ refused: [], stale: [], silenced: [1] });
    // An acknowledgement for another resource type or another stack does not cover it.
    expect(judgeLint(warned, [{ ...queueAck, resourceType: 'AWS::SNS::Topic' }]).refused).toHaveLength(1);
    expect(judgeLint(warned, [{ ...queueAck, stacks: ['stateless'] }]).refused).toHaveLength(1);
  });

  it('an acknowledgement that silences nothing', () => {
    expect(judgeLint([], [queueAck]).stale).toEqual([queueAck]);
  });

  it('to pass when cfn-lint is not installed, and says how to install it', async () => {
    await expect(runCfnLint(files, 'cfn-lint-not-installed-here')).rejects.toThrow(CFN_LINT_MISSING);
    expect(CFN_LINT_MISSING).toMatch(/pip install cfn-lint/);
  });
});
