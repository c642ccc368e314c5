import type * as z from 'zod/mini';
import type {
  IntegrationMappingPreviewCreate,
  IntegrationRepairPreviewCreate,
} from '#shared/api/schemas/integrations';
import type {
  IntegrationMappingPreviewRead,
  IntegrationRepairPreviewRead,
} from '#shared/api/schemas/responses';
import { NotFoundError } from '#shared/kernel/errors';
import { adapterByKey } from './adapters/index';
import type { AdapterDeclaration } from './catalog';
import {
  CHECK_ISSUES,
  configErrors,
  type HubDeps,
  localChecks,
  missingMappingKeys,
  unknownConnection,
} from './diagnostics';
import { unsupportedScopes } from './scopes';
import { computeHealth } from './health';
import { expectedMinutes } from './schedule';
import type { Connection, IssueCode } from './ports';

/**
 * The hub's previews (docs/api.md section 9.3): what a mapping makes of a provider record, and
 * what would repair a connection. Both only read: no item, audit event, outbox event or provider
 * call.
 */

type MappingPreview = z.output<typeof IntegrationMappingPreviewRead>;
type RepairPreview = z.output<typeof IntegrationRepairPreviewRead>;
type PreviewDeps = Pick<HubDeps, 'connections' | 'hub' | 'clock'>;

/** Deeper levels of a sample are not walked (a bound on the work a request can ask for). */
export const SAMPLE_DEPTH_MAX = 16;

/**
 * The value at a provider path in a record: `Contact.Name`, and `LineItems[].AccountCode` for the
 * field of every element of an array (an array of values). Undefined when the path finds nothing.
 */
export function valueAt(record: unknown, path: string): unknown {
  let values: unknown[] = [record];
  let spread = false;
  for (const segment of path.split('.')) {
    const each = segment.endsWith('[]');
    const name = each ? segment.slice(0, -2) : segment;
    values = values.flatMap((v) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, name)) return [];
      const found = (v as Record<string, unknown>)[name];
      if (!each) return [found];
      return Array.isArray(found) ? found : [];
    });
    spread ||= each;
  }
  if (values.length === 0) return undefined;
  return spread ? values : values[0];
}

/** Every leaf path of a sample, arrays written `name[]` (each path once), down to SAMPLE_DEPTH_MAX. */
function leafPaths(value: unknown, prefix: string, depth: number, out: Set<string>): boolean {
  if (value === null || typeof value !== 'object') {
    if (prefix) out.add(prefix);
    return true;
  }
  if (depth >= SAMPLE_DEPTH_MAX) return false;
  let complete = true;
  if (Array.isArray(value)) {
    for (const v of value) complete = leafPaths(v, `${prefix}[]`, depth + 1, out) && complete;
    return complete;
  }
  for (const [k, v] of Object.entries(value))
    complete = leafPaths(v, prefix ? `${prefix}.${k}` : k, depth + 1, out) && complete;
  return complete;
}

/** The mapping applied to a sample record, pure. */
export function previewMapping(
  adapter: AdapterDeclaration,
  sample: Record<string, unknown>,
  mapping: Record<string, string>,
): MappingPreview {
  const mapped: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [field, path] of Object.entries(mapping)) {
    const value = valueAt(sample, path);
    if (value === undefined) warnings.push(`${field}: the sample has nothing at ${path}`);
    else mapped[field] = value;
  }
  const leaves = new Set<string>();
  if (!leafPaths(sample, '', 0, leaves))
    warnings.push(
      `the sample is nested deeper than ${SAMPLE_DEPTH_MAX} levels; deeper fields are not listed`,
    );
  const paths = Object.values(mapping);
  const read = (leaf: string) =>
    paths.some((p) => leaf === p || leaf.startsWith(`${p}.`) || leaf.startsWith(`${p}[]`));
  return {
    mapped,
    missing_required_keys: missingMappingKeys(adapter, mapping),
    unmapped_fields: [...leaves].filter((leaf) => !read(leaf)).sort(),
    warnings,
  };
}

async function connectionOf(deps: PreviewDeps, tenantId: string, id: string) {
  const c = await deps.connections.get(tenantId, id);
  const adapter = c && adapterByKey(c.adapter_key);
  return c && adapter ? { c, adapter } : undefined;
}

export async function mappingPreview(
  deps: PreviewDeps,
  tenantId: string,
  connectionId: string,
  input: z.output<typeof IntegrationMappingPreviewCreate>,
): Promise<MappingPreview> {
  const found = await connectionOf(deps, tenantId, connectionId);
  if (!found) throw new NotFoundError();
  return previewMapping(found.adapter, input.sample, input.mapping ?? found.c.mapping);
}

type Change = RepairPreview['proposed_changes'][number];

/** What would fix one issue code: the changes (never a secret value, only whether one is set) and the steps. */
function repairOf(
  adapter: AdapterDeclaration,
  c: Connection,
  code: IssueCode,
): { changes: Change[]; steps: string[] } {
  switch (code) {
    case 'config_invalid':
      return {
        changes: configErrors(adapter, c.config).map((e) => {
          const field = e.path.replace(/^config\.?/, '').split('.')[0] ?? '';
          return {
            path: e.path,
            before: field ? (c.config[field] ?? null) : c.config,
            after: field ? (adapter.config_example[field] ?? null) : adapter.config_example,
          };
        }),
        steps: [`correct the config fields named above (GET /adapters/${adapter.key} shows config_schema)`],
      };
    case 'secret_missing':
      return {
        changes: [{ path: 'secret', before: 'not set', after: 'set' }],
        steps: [
          `obtain ${adapter.auth.secret_fields.join(', ')} from the provider (${adapter.auth.type})`,
          'PATCH the connection with them as secret (write-only: it is never shown again)',
        ],
      };
    case 'scope_not_supported': {
      const kept = c.scopes.filter((s) => !unsupportedScopes(adapter, [s]).length);
      return {
        changes: [
          { path: 'scopes', before: c.scopes, after: kept.length ? kept : [...adapter.scopes.default] },
        ],
        steps: ['PATCH scopes without the unsupported ones'],
      };
    }
    case 'mapping_incomplete':
      return {
        changes: missingMappingKeys(adapter, c.mapping).map((key) => ({
          path: `mapping.${key}`,
          before: null,
          after: adapter.mapping_example[key] ?? null,
        })),
        steps: ['try the mapping on a provider record (POST .../mapping-preview)', 'PATCH the mapping'],
      };
    case 'provider_unreachable':
      return {
        changes: [],
        steps: [
          "check the provider's status page and the connection's account at the provider",
          'run the diagnostics again once the provider answers',
        ],
      };
    case 'reauthorization_required':
      return {
        changes: [{ path: 'secret', before: 'refused by the provider', after: 'set' }],
        steps: [
          "POST the connection's authorize and open the authorize_url in a browser",
          'give consent at the provider; sending resumes, and failed exports can be retried from review',
        ],
      };
  }
}

const RISK: Record<IssueCode, RepairPreview['risk_level']> = {
  mapping_incomplete: 'low',
  scope_not_supported: 'medium',
  config_invalid: 'medium',
  secret_missing: 'high',
  provider_unreachable: 'high',
  reauthorization_required: 'high',
};
const RISK_ORDER: RepairPreview['risk_level'][] = ['none', 'low', 'medium', 'high'];

/**
 * The repair preview: the problems of a connection (its local checks failing now, and its open
 * issues, the provider's among them), optionally one `issue_code` only, with the changes that would
 * fix them, the steps and the API calls, in order. It reads the connection and its health record.
 */
export async function repairPreview(
  deps: PreviewDeps,
  tenantId: string,
  input: z.output<typeof IntegrationRepairPreviewCreate>,
): Promise<RepairPreview> {
  const found = await connectionOf(deps, tenantId, input.connection_id);
  if (!found) throw unknownConnection();
  const { c, adapter } = found;
  const record = await deps.hub.health(tenantId, c.id);
  const open = new Set(record?.open_issue_codes ?? []);
  const checks = localChecks(adapter, c);
  const problems: RepairPreview['problems'] = checks
    .filter((k) => k.status === 'fail')
    .map((k) => ({
      issue_code: k.issue_code!,
      check: k.id,
      message: k.message,
      open_issue: open.has(k.issue_code!),
    }));
  for (const code of open) {
    if (problems.some((p) => p.issue_code === code)) continue;
    const check = Object.entries(CHECK_ISSUES).find(([, c]) => c === code)?.[0] ?? code;
    problems.push({
      issue_code: code as IssueCode,
      check,
      message: `an open issue from the last diagnostics (${code})`,
      open_issue: true,
    });
  }
  const shown = problems.filter((p) => !input.issue_code || p.issue_code === input.issue_code);
  const repairs = shown.map((p) => repairOf(adapter, c, p.issue_code));
  const changes = repairs.flatMap((r) => r.changes);
  const base = `/tenants/${tenantId}/integration-connections/${c.id}`;
  const patch: Record<string, unknown> = {};
  for (const change of changes) {
    const [top, field] = change.path.split('.');
    if (top === 'secret')
      patch.secret = Object.fromEntries(adapter.auth.secret_fields.map((f) => [f, `<${f}>`]));
    else if (top === 'scopes') patch.scopes = change.after;
    else if (top && field)
      patch[top] = { ...(patch[top] ?? c[top as 'config' | 'mapping']), [field]: change.after };
  }
  const risk = shown.reduce<RepairPreview['risk_level']>(
    (worst, p) =>
      RISK_ORDER.indexOf(RISK[p.issue_code]) > RISK_ORDER.indexOf(worst) ? RISK[p.issue_code] : worst,
    'none',
  );
  return {
    status: 'previewed',
    tenant_id: tenantId,
    connection_id: c.id,
    generated_at: deps.clock.now().toISOString(),
    summary:
      shown.length === 0
        ? `${c.name} (${c.adapter_key}): nothing to repair`
        : `${c.name} (${c.adapter_key}): ${shown.length} problem${shown.length > 1 ? 's' : ''} (${shown.map((p) => p.issue_code).join(', ')})`,
    problems: shown,
    proposed_changes: changes,
    steps: [
      ...repairs.flatMap((r) => r.steps),
      ...(shown.length ? ['run the diagnostics again (POST .../diagnostics)'] : []),
    ],
    risk_level: risk,
    evidence: {
      adapter_key: c.adapter_key,
      connection_status: c.status,
      secret_configured: c.secret_configured,
      scopes: c.scopes,
      open_issue_codes: [...open].sort(),
      checks,
      health: computeHealth(record, expectedMinutes(c), deps.clock.now()),
    },
    api: shown.length
      ? [
          ...(Object.keys(patch).length ? [{ method: 'PATCH', path: base, body: patch }] : []),
          { method: 'POST', path: `${base}/diagnostics` },
        ]
      : [],
  };
}
