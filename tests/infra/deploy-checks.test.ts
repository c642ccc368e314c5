import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_SEVERITY, CONTEXT } from '#infra/config';
import {
  CFN_LINT_MISSING,
  judgeLint,
  type LintAck,
  type LintFinding,
  readLintAcks,
  runCfnLint,
} from '../../scripts/lib/cfn-lint';
import { CHANGELOG, LINT_ACKS, readReleased, synthTemplates } from '../../scripts/lib/deploy-templates';
import { migrationsNamed, statefulLosses, type Template } from '../../scripts/lib/stateful-diff';

/**
 * The deploy-time checks of docs/deploy.md ("Checks before a deploy"), on one synthesis of the
 * app: cfn-lint finds no error and only acknowledged warnings, and no stateful resource of the
 * last release's templates (releases/templates/) is replaced or removed without a migration
 * named in CHANGELOG.md. Each check is also shown refusing what it must refuse.
 */

const synthesized = synthTemplates();
const released = readReleased();
const acks = readLintAcks(LINT_ACKS);

type Resources = Record<
  string,
  { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string }
>;
const resourcesOf = (t: Template) => t.Resources as Resources;
const copy = (templates: Record<string, Template>) => structuredClone(templates);
const logicalIdOf = (t: Template, type: string) => {
  const ids = Object.entries(resourcesOf(t))
    .filter(([, r]) => r.Type === type)
    .map(([id]) => id);
  expect(ids.length, type).toBeGreaterThan(0);
  return ids[0]!;
};

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

/** The app's templates and the two made-up ones, in one cfn-lint run (its start costs seconds). */
let all: LintFinding[];
beforeAll(async () => {
  all = await runCfnLint({ ...synthesized.files, ...files });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cfn-lint on every synthesized template', () => {
  const findings = () => all.filter((f) => f.stack in synthesized.files);

  it('lints all three stacks', () => {
    expect(Object.keys(synthesized.files).sort()).toEqual(['api-routes', 'stateful', 'stateless']);
  });

  it('finds no error and no warning that infra/cfn-lint-acknowledged.json does not acknowledge', () => {
    const verdict = judgeLint(findings(), acks);
    expect(verdict.refused).toEqual([]);
    // Today: the 25 functions' DependsOn on their own role (W3005), all CDK's rendering.
    expect(verdict.silenced.reduce((a, b) => a + b, 0)).toBe(findings().length);
  });

  it('keeps no acknowledgement that silences nothing', () => {
    expect(judgeLint(findings(), acks).stale).toEqual([]);
  });
});

describe('cfn-lint refuses', () => {
  const findings = () => all.filter((f) => f.stack in files);

  it('a template with an error, whatever the acknowledgements say', () => {
    const broken = findings().filter((f) => f.stack === 'broken');
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
    const warned = findings().filter((f) => f.stack === 'warned');
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

describe('stateful resources against the last release (releases/templates/)', () => {
  const changelog = readFileSync(CHANGELOG, 'utf8');
  const unreleased = (...lines: string[]) =>
    `# Changelog\n\n## Unreleased\n\n${lines.join('\n')}\n\n${changelog}`;
  const table = logicalIdOf(released.templates.stateful!, 'AWS::DynamoDB::Table');

  /** The release's templates with the table's sort key renamed: DynamoDB replaces the table. */
  const withNewKeySchema = () => {
    const next = copy(released.templates);
    const props = resourcesOf(next.stateful!)[table]!.Properties as {
      KeySchema: { AttributeName: string; KeyType: string }[];
      AttributeDefinitions: { AttributeName: string }[];
    };
    const range = props.KeySchema.find((k) => k.KeyType === 'RANGE')!;
    const definition = props.AttributeDefinitions.find((d) => d.AttributeName === range.AttributeName)!;
    range.AttributeName = definition.AttributeName = 'sk2';
    return next;
  };

  it("today's templates replace or remove no stateful resource CHANGELOG.md does not name", () => {
    const named = migrationsNamed(changelog, released.version);
    expect(
      statefulLosses(released.templates, synthesized.templates).filter((l) => !named.has(l.logicalId)),
    ).toEqual([]);
  });

  it("refuses a change of the table's key schema, and passes it once CHANGELOG.md names the migration", () => {
    const losses = statefulLosses(released.templates, withNewKeySchema());
    expect(losses).toEqual([
      {
        stack: 'stateful',
        logicalId: table,
        type: 'AWS::DynamoDB::Table',
        impact: 'WILL_REPLACE',
        because: expect.arrayContaining(['KeySchema']),
      },
    ]);
    expect(migrationsNamed(changelog, released.version).has(table)).toBe(false);
    const named = migrationsNamed(
      unreleased(`Migration: ${table} copied into the new table by scripts/backfill-index-keys.ts first.`),
      released.version,
    );
    expect(losses.filter((l) => !named.has(l.logicalId))).toEqual([]);
  });

  it('counts a migration line only with its explanation, and only above the kept release', () => {
    expect(migrationsNamed(unreleased(`Migration: ${table}`), released.version).has(table)).toBe(false);
    expect(
      migrationsNamed(unreleased(`- Migration: \`${table}\` — exported and re-imported.`), released.version),
    ).toEqual(new Set([table]));
    const old = `## Unreleased\n\n## ${released.version}\n\nMigration: ${table} a migration of an older release.\n`;
    expect(migrationsNamed(old, released.version).has(table)).toBe(false);
  });

  it('refuses a removal of a queue, a retained key or the whole stateful stack', () => {
    const next = copy(released.templates);
    const resources = resourcesOf(next.stateful!);
    const queue = logicalIdOf(next.stateful!, 'AWS::SQS::Queue');
    const key = Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::KMS::Key' && r.DeletionPolicy === 'Retain',
    )![0];
    delete resources[queue];
    delete resources[key];
    expect(statefulLosses(released.templates, next).map((l) => [l.logicalId, l.impact])).toEqual(
      expect.arrayContaining([
        [queue, 'WILL_DESTROY'],
        [key, 'WILL_ORPHAN'],
      ]),
    );
    const { stateful: _, ...withoutStateful } = copy(released.templates);
    const stateful = Object.entries(resourcesOf(released.templates.stateful!)).filter(([, r]) =>
      ['AWS::DynamoDB::Table', 'AWS::SQS::Queue', 'AWS::S3::Bucket', 'AWS::KMS::Key'].includes(r.Type),
    );
    expect(statefulLosses(released.templates, withoutStateful)).toHaveLength(stateful.length);
  });

  it("refuses the replacement of a function's log group (its name changes)", () => {
    const next = copy(released.templates);
    const group = logicalIdOf(next.stateless!, 'AWS::Logs::LogGroup');
    resourcesOf(next.stateless!)[group]!.Properties!.LogGroupName = '/aws/lambda/renamed';
    expect(statefulLosses(released.templates, next).map((l) => [l.logicalId, l.impact])).toEqual([
      [group, 'WILL_REPLACE'],
    ]);
  });

  it('passes new resources, in-place updates of stateful ones and changes of stateless ones', () => {
    const next = copy(released.templates);
    const stateful = resourcesOf(next.stateful!);
    stateful.AnotherQueue = { Type: 'AWS::SQS::Queue', Properties: { MessageRetentionPeriod: 60 } };
    stateful.AnotherBucket = { Type: 'AWS::S3::Bucket' };
    const queue = logicalIdOf(next.stateful!, 'AWS::SQS::Queue');
    stateful[queue]!.Properties!.VisibilityTimeout = 999;
    stateful[table]!.Properties!.PointInTimeRecoverySpecification = { PointInTimeRecoveryEnabled: false };
    const stateless = resourcesOf(next.stateless!);
    const fn = logicalIdOf(next.stateless!, 'AWS::Lambda::Function');
    stateless[fn]!.Properties!.MemorySize = 2048;
    stateless[fn]!.Properties!.FunctionName = 'renamed-function';
    const role = logicalIdOf(next.stateless!, 'AWS::IAM::Role');
    delete stateless[role];
    expect(statefulLosses(released.templates, next)).toEqual([]);
  });
});

describe('docs/deploy.md', () => {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');

  it('says, for every alarm, which topic it notifies and its runbook', () => {
    for (const [alarm, severity] of Object.entries(ALARM_SEVERITY)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${alarm}\` |`));
      expect(row, alarm).toBeDefined();
      expect(row!.split('|')[2]!.trim(), alarm).toBe(severity);
      expect(row, alarm).toContain(`(../runbooks/${alarm}.md)`);
    }
  });

  it('names every context key', () => {
    for (const key of Object.values(CONTEXT)) expect(doc, key).toContain(`| \`${key}\` |`);
  });
});
