import { tenantPath } from '../../app-context.js';

/**
 * The console's screen for a record the service acts on, where it has one: an exception's
 * detail, a rule, a run; tasks and review items have lists, not pages. Anything else is shown by
 * type and id only.
 */
export function subjectHref(tenant: string, type: string | null, id: string | null): string | undefined {
  if (!type || !id) return undefined;
  const enc = encodeURIComponent(id);
  switch (type) {
    case 'exception':
      return tenantPath(tenant, `exceptions/${enc}`);
    case 'workflow_rule':
      return tenantPath(tenant, `rules/${enc}`);
    case 'workflow_run':
      return tenantPath(tenant, `runs/${enc}`);
    case 'task':
      return tenantPath(tenant, 'tasks?who=all');
    default:
      return undefined;
  }
}

export function Subject({ tenant, type, id }: { tenant: string; type: string | null; id: string | null }) {
  if (!type) return <span class="muted">–</span>;
  const href = subjectHref(tenant, type, id);
  const label = (
    <>
      {type.replaceAll('_', ' ')} <span class="mono">{id}</span>
    </>
  );
  return href ? <a href={href}>{label}</a> : label;
}
