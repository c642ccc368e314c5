import { fullDiff, ResourceImpact } from '@aws-cdk/cloudformation-diff';

/**
 * What a deploy of today's templates over the last release's would do to the resources that hold
 * data, judged by `@aws-cdk/cloudformation-diff` (the library behind `cdk diff`, which knows which
 * property changes replace a resource). A replacement or removal of one of them loses its data,
 * or strands it outside the stack, unless someone planned for it: CHANGELOG.md must then name the
 * migration (docs/deploy.md, "Checks before a deploy").
 */

/** Resource types whose replacement or removal loses data: records, messages, objects, keys, logs. */
export const STATEFUL_TYPES: readonly string[] = [
  'AWS::DynamoDB::Table',
  'AWS::DynamoDB::GlobalTable',
  'AWS::SQS::Queue',
  'AWS::S3::Bucket',
  'AWS::KMS::Key',
  'AWS::Logs::LogGroup',
];

/** The impacts that lose the physical resource, or its place in the stack. */
const LOSING: ReadonlySet<ResourceImpact> = new Set([
  ResourceImpact.WILL_REPLACE,
  ResourceImpact.MAY_REPLACE,
  ResourceImpact.WILL_DESTROY,
  ResourceImpact.WILL_ORPHAN,
]);

export type Template = Record<string, unknown>;

export interface StatefulLoss {
  readonly stack: string;
  readonly logicalId: string;
  readonly type: string;
  readonly impact: ResourceImpact;
  /** The properties whose change causes a replacement, when that is the impact. */
  readonly because: string[];
}

const EMPTY: Template = { Resources: {} };

/**
 * Stateful resources of the released stacks (by stack role) that deploying the current ones
 * would replace, destroy or orphan. A stack that is gone loses all of its resources.
 */
export function statefulLosses(
  released: Record<string, Template>,
  current: Record<string, Template>,
): StatefulLoss[] {
  const losses: StatefulLoss[] = [];
  for (const stack of Object.keys(released).sort()) {
    const diff = fullDiff(released[stack] ?? EMPTY, current[stack] ?? EMPTY);
    diff.resources.forEachDifference((logicalId, change) => {
      const types = [change.oldValue?.Type, change.newValue?.Type];
      const type = types.find((t) => t !== undefined && STATEFUL_TYPES.includes(t));
      if (type === undefined || change.isAddition || !LOSING.has(change.changeImpact)) return;
      const because = Object.entries(change.propertyUpdates)
        .filter(([, p]) => p.changeImpact !== undefined && LOSING.has(p.changeImpact))
        .map(([name]) => name);
      losses.push({ stack, logicalId, type, impact: change.changeImpact, because });
    });
  }
  return losses;
}

/**
 * Logical ids CHANGELOG.md names as migrations since the kept release: lines
 * `Migration: <LogicalId> <what happens to its data>` in the sections above that release's
 * `## <version>` heading (`## Unreleased`, or the next version's). A line without its
 * explanation does not count.
 */
export function migrationsNamed(changelog: string, releasedVersion: string): Set<string> {
  const heading = new RegExp(`^## ${releasedVersion.replace(/\./g, '\\.')}\\s*$`, 'm');
  const at = changelog.search(heading);
  const unreleased = at < 0 ? changelog : changelog.slice(0, at);
  const named = new Set<string>();
  for (const [, id, why] of unreleased.matchAll(
    /^\s*(?:[-*]\s+)?Migration:\s+`?([A-Za-z][A-Za-z0-9]*)`?\s*(.*)$/gm,
  ))
    if ((why ?? '').replace(/^[:\-–—\s]+/, '').length >= 20) named.add(id!);
  return named;
}

export const describeLoss = (l: StatefulLoss): string =>
  `${l.stack}/${l.logicalId} (${l.type}): ${l.impact}${l.because.length ? ` by ${l.because.join(', ')}` : ''}`;
