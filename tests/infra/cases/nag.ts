import { Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, NagPack, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import type { Synthesized } from '#tests/infra/synth';

interface Ack {
  path: string;
  id: string;
  reason: string;
}

/** Every `Validations.of(x).acknowledge(...)` in the app, with the construct it is on. */
const acknowledgements = (root: IConstruct): Ack[] =>
  root.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) =>
        Object.entries(m.data as Record<string, string>).map(([key, reason]) => ({
          path: c.node.path,
          id: key.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );

type AckCheck = (resource: IConstruct, ruleId: string) => boolean;

/**
 * Runs a pack over a scope and records which acknowledgement (construct path + rule id)
 * silenced each finding, by wrapping the pack's own acknowledgement lookup.
 */
function runPack(pack: NagPack, scope: IConstruct) {
  const proto = NagPack.prototype as unknown as { isAcknowledged: AckCheck };
  const original = proto.isAcknowledged;
  const used = new Set<string>();
  proto.isAcknowledged = function (this: NagPack, resource, ruleId) {
    const hit = original.call(this, resource, ruleId);
    if (hit) {
      for (let c: IConstruct | undefined = resource; c; c = c.node.scope) {
        const own = acknowledgements(c).filter((a) => a.path === c!.node.path && a.id === ruleId);
        if (own.length > 0) {
          used.add(`${c.node.path}|${ruleId}`);
          break;
        }
      }
    }
    return hit;
  };
  try {
    return { report: pack.validateScope(scope), used };
  } finally {
    proto.isAcknowledged = original;
  }
}

/**
 * cdk-nag 3 (AwsSolutions and Serverless packs) against both stacks: no finding is left
 * unacknowledged, and every acknowledgement names one exact rule, gives a specific reason and
 * actually silences a finding.
 */
export function nagCases(s: Synthesized): void {
  const stacks = [s.stateful, s.stateless, s.apiRoutes];
  const packs = [() => new AwsSolutionsChecks(), () => new ServerlessChecks()];
  const runs = stacks.flatMap((stack) =>
    packs.map((make) => {
      const pack = make();
      return { stack, pack: pack.readPackName, ...runPack(pack, stack) };
    }),
  );
  const acks = acknowledgements(s.app);

  describe('cdk-nag', () => {
    it.each(runs.map((r) => [r.pack, r.stack.stackName, r] as const))(
      '%s on %s: zero unacknowledged findings',
      (_, __, run) => {
        const findings = run.report.violations.flatMap((v) =>
          v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`),
        );
        expect(findings).toEqual([]);
        expect(run.report.success).toBe(true);
      },
    );

    it('has acknowledgements only for exact rule ids (one finding id where a rule has several)', () => {
      expect(acks.length).toBeGreaterThan(0);
      for (const a of acks) {
        expect(a.id, a.path).toMatch(
          /^((AwsSolutions|Serverless)-[A-Za-z0-9]+(\[[^\]]+\])?|@aws-cdk\/[a-z0-9-]+:[A-Za-z]+)$/,
        );
        // IAM5 is a granular rule: a bare "AwsSolutions-IAM5" would hide every wildcard at once.
        if (a.id.startsWith('AwsSolutions-IAM'))
          expect(a.id, a.path).toMatch(/\[(Resource|Action|Policy)::.+\]$/);
      }
    });

    it('gives every acknowledgement a specific reason', () => {
      for (const a of acks) {
        expect(a.reason.length, `${a.id} at ${a.path}`).toBeGreaterThanOrEqual(60);
        expect(a.reason, `${a.id} at ${a.path}`).not.toMatch(/^(todo|n\/a|ok|fine|not needed|suppress)/i);
      }
    });

    it('acknowledges on the resource that needs it, never on a whole stack or the app', () => {
      for (const a of acks) {
        expect(a.path.split('/').length, `${a.id} at ${a.path}`).toBeGreaterThanOrEqual(2);
      }
    });

    it('has no stale acknowledgement: each one silences a real finding', () => {
      const used = new Set(runs.flatMap((r) => [...r.used]));
      const nag = acks.filter((a) => !a.id.startsWith('@aws-cdk/'));
      const stale = nag.filter((a) => !used.has(`${a.path}|${a.id}`)).map((a) => `${a.id} at ${a.path}`);
      expect(stale).toEqual([]);
    });

    it('leaves no unacknowledged CDK warning or error in either stack', () => {
      for (const stack of stacks) {
        const annotations = Annotations.fromStack(stack);
        expect(annotations.findWarning('*', Match.anyValue()), stack.stackName).toEqual([]);
        expect(annotations.findError('*', Match.anyValue()), stack.stackName).toEqual([]);
      }
    });
  });
}
