import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { type Cfn, resourcesOf, type Synthesized } from '#tests/infra/synth';

/**
 * Limits that only a deployment would meet, held offline with headroom (docs/infrastructure.md,
 * "Deploy-time limits"). Token values (`Ref`, `Fn::*`) are counted as TOKEN_CHARS characters
 * each, longer than any ARN or URL they resolve to here.
 */

/** CloudFormation and IAM quotas, and the share of each the service may use. */
export const DEPLOY_LIMITS = {
  /** CloudFormation: 500 resources per stack; held under 400, room for a wave of routes. */
  resourcesPerStack: { quota: 500, allowed: 400 },
  /** CloudFormation: a template uploaded through S3 (as `cdk deploy` does) up to 1 MB. */
  templateBytes: { quota: 1_000_000, allowed: 500_000 },
  /** IAM: all inline policies of one role together, 10,240 characters (whitespace not counted). */
  rolePolicyChars: { quota: 10_240, allowed: 7_680 },
  /** Lambda: a function's environment variables, keys and values, 4 KB. */
  environmentBytes: { quota: 4_096, allowed: 3_072 },
  /** API Gateway HTTP API: 300 routes per API (a default quota, adjustable). */
  routesPerApi: { quota: 300, allowed: 270 },
} as const;

const TOKEN_CHARS = 120;

/** A template value with every token replaced by a string as long as the longest it stands for. */
const resolvedAtMost = (value: Cfn): Cfn => {
  if (Array.isArray(value)) return value.map(resolvedAtMost);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === 'Ref' || keys[0]!.startsWith('Fn::')))
      return 'x'.repeat(TOKEN_CHARS);
    return Object.fromEntries(keys.map((k) => [k, resolvedAtMost(value[k])]));
  }
  return value;
};
const size = (value: Cfn) => JSON.stringify(resolvedAtMost(value)).length;

export function limitCases(s: Synthesized): void {
  const stacks: [string, Stack, Template][] = [
    ['stateful', s.stateful, s.statefulTemplate],
    ['stateless', s.stateless, s.statelessTemplate],
    ['api-routes', s.apiRoutes, s.apiRoutesTemplate],
  ];

  describe('deploy-time limits, with headroom', () => {
    it('covers every stack of the app', () => {
      const all = s.app.node.children.filter((c) => Stack.isStack(c)).map((c) => c.node.id);
      expect(all.sort()).toEqual(stacks.map(([, stack]) => stack.node.id).sort());
    });

    it.each(stacks)('%s: under 400 resources (CloudFormation: 500)', (_, __, t) => {
      const count = Object.keys(t.toJSON().Resources).length;
      expect(count).toBeLessThan(DEPLOY_LIMITS.resourcesPerStack.allowed);
    });

    it.each(stacks)('%s: a template under 500 KB (CloudFormation: 1 MB through S3)', (_, __, t) => {
      expect(JSON.stringify(t.toJSON()).length).toBeLessThan(DEPLOY_LIMITS.templateBytes.allowed);
    });

    it.each(stacks)(
      "%s: each role's inline policies together under 7,680 characters (IAM: 10,240)",
      (_, __, t) => {
        const byRole = new Map<string, number>();
        for (const [, p] of resourcesOf(t, 'AWS::IAM::Policy')) {
          for (const role of p.Roles ?? []) {
            const id = JSON.stringify(role);
            byRole.set(id, (byRole.get(id) ?? 0) + size(p.PolicyDocument));
          }
        }
        for (const [id, r] of resourcesOf(t, 'AWS::IAM::Role')) {
          const inline = (r.Policies ?? []).reduce((n: number, p: Cfn) => n + size(p.PolicyDocument), 0);
          const key = JSON.stringify({ Ref: id });
          byRole.set(key, (byRole.get(key) ?? 0) + inline);
        }
        for (const [role, chars] of byRole)
          expect([role, chars < DEPLOY_LIMITS.rolePolicyChars.allowed]).toEqual([role, true]);
      },
    );

    it.each(stacks)("%s: each function's environment under 3 KB (Lambda: 4 KB)", (_, __, t) => {
      for (const [id, p] of resourcesOf(t, 'AWS::Lambda::Function')) {
        const vars = (p.Environment?.Variables ?? {}) as Record<string, Cfn>;
        const bytes = Object.entries(vars).reduce(
          (n, [k, v]) => n + k.length + (typeof v === 'string' ? Buffer.byteLength(v) : TOKEN_CHARS),
          0,
        );
        expect([id, bytes < DEPLOY_LIMITS.environmentBytes.allowed]).toEqual([id, true]);
      }
    });

    it('the HTTP API: under 270 routes (API Gateway: 300 by default)', () => {
      expect(resourcesOf(s.apiRoutesTemplate, 'AWS::ApiGatewayV2::Route').length).toBeLessThan(
        DEPLOY_LIMITS.routesPerApi.allowed,
      );
    });
  });
}
