import { useLocation } from 'preact-iso';
import { workflowRulesList } from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { Badge, Listing, Pager, Time, withQuery } from '../../ui/table.js';
import { actionSummary, triggerSummary } from '../rule/describe.js';

/**
 * The tenant's workflow rules, newest first: what starts each (an event or a schedule), what it
 * does, whether it is on. A manager or owner adds one from here.
 */
export function RulesScreen() {
  const { client, tenant, can } = useConsole();
  const { query } = useLocation();
  const cursor = query.cursor || undefined;
  const list = useLoad(
    async () =>
      (await workflowRulesList({ client, path: { tenant_id: tenant }, query: { cursor, limit: 50 } })).data,
    [tenant, cursor],
  );

  return (
    <section aria-labelledby="title">
      <h1 id="title">Workflow rules</h1>
      {can('workflow_rules.manage') ? (
        <p>
          <a class="button" href={tenantPath(tenant, 'rules/new')}>
            New rule
          </a>
        </p>
      ) : null}
      <Listing list={list} empty="No workflow rules yet.">
        {(data) => (
          <>
            <table class="list" data-testid="rules">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Does</th>
                  <th scope="col">State</th>
                  <th scope="col">Version</th>
                  <th scope="col">Changed</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((r) => (
                  <tr key={r.id}>
                    <td class="title">
                      <a href={tenantPath(tenant, `rules/${encodeURIComponent(r.id)}`)}>{r.name}</a>
                    </td>
                    <td class="mono">{triggerSummary(r.trigger)}</td>
                    <td>{r.actions.map(actionSummary).join(', then ')}</td>
                    <td>
                      <Badge value={r.enabled ? 'enabled' : 'disabled'} />
                    </td>
                    <td>{r.version}</td>
                    <td>
                      <Time at={r.updated_at} />
                    </td>
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
