import { useLocation } from 'preact-iso';
import { auditList } from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { useMemberNames } from '../../ui/members.js';
import { Pager, Time, withQuery, Listing } from '../../ui/table.js';

/** The tenant's audit log, newest first, narrowed to one entity type or one entity (in the URL). */
export function AuditScreen() {
  const { client, tenant, can } = useConsole();
  const { query, route } = useLocation();
  const entityType = query.entity_type || undefined;
  const entityId = entityType ? query.entity_id || undefined : undefined;
  const cursor = query.cursor || undefined;
  const allowed = can('audit.read');
  const nameOf = useMemberNames();
  const list = useLoad(
    async () =>
      allowed
        ? (
            await auditList({
              client,
              path: { tenant_id: tenant },
              query: { entity_type: entityType, entity_id: entityId, cursor, limit: 50 },
            })
          ).data
        : { items: [], next_cursor: null },
    [tenant, entityType, entityId, cursor, allowed],
  );
  if (!allowed)
    return (
      <section>
        <h1 id="title">Audit log</h1>
        <p class="empty">Your role does not read the audit log.</p>
      </section>
    );

  const submit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const type = String(form.get('entity_type') ?? '').trim();
    route(
      withQuery({
        entity_type: type,
        entity_id: type ? String(form.get('entity_id') ?? '').trim() : undefined,
        cursor: undefined,
      }),
    );
  };
  return (
    <section aria-labelledby="title">
      <h1 id="title">Audit log</h1>
      <form class="filters" onSubmit={submit} key={`${entityType}/${entityId}`}>
        <label>
          Entity type{' '}
          <input name="entity_type" defaultValue={entityType ?? ''} placeholder="exception" size={14} />
        </label>
        <label>
          Entity id <input name="entity_id" defaultValue={entityId ?? ''} size={28} />
        </label>
        <button type="submit">Show</button>
      </form>
      <Listing list={list} empty={'No audit events match.'}>
        {(data) => (
          <>
            <table class="list" data-testid="audit">
              <thead>
                <tr>
                  <th scope="col">At</th>
                  <th scope="col">Event</th>
                  <th scope="col">Entity</th>
                  <th scope="col">Summary</th>
                  <th scope="col">Actor</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <Time at={e.created_at} seconds />
                    </td>
                    <td class="mono">{e.event_type}</td>
                    <td class="nowrap">
                      {!e.entity_type || !e.entity_id ? (
                        <span class="muted">–</span>
                      ) : e.entity_type === 'exception' ? (
                        <a href={tenantPath(tenant, `exceptions/${encodeURIComponent(e.entity_id)}`)}>
                          {e.entity_type} <span class="mono">{e.entity_id}</span>
                        </a>
                      ) : (
                        <a
                          href={withQuery({
                            entity_type: e.entity_type,
                            entity_id: e.entity_id,
                            cursor: undefined,
                          })}
                        >
                          {e.entity_type} <span class="mono">{e.entity_id}</span>
                        </a>
                      )}
                    </td>
                    <td class="detail">{e.summary}</td>
                    <td>{nameOf(e.actor_id)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager next={data.next_cursor} href={(c) => withQuery({ cursor: c })} />
          </>
        )}
      </Listing>
    </section>
  );
}
