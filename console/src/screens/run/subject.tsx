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

/**
 * A subject by type and id, linked where the console has its screen. `short`: a list's row shows
 * the id's last 8 characters (the whole id in the tooltip), so a phone's narrow column is not a
 * tower of id fragments.
 */
export function Subject({
  tenant,
  type,
  id,
  short,
}: {
  tenant: string;
  type: string | null;
  id: string | null;
  short?: boolean;
}) {
  if (!type) return <span class="muted">–</span>;
  const href = subjectHref(tenant, type, id);
  const shown = short && id && id.length > 12 ? `…${id.slice(-8)}` : id;
  const label = (
    <>
      {type.replaceAll('_', ' ')}{' '}
      <span class="mono" title={shown === id ? undefined : (id ?? undefined)}>
        {shown}
      </span>
    </>
  );
  return href ? <a href={href}>{label}</a> : label;
}
