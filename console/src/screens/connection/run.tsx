import { useRoute } from 'preact-iso';
import { exceptionsGet, reconciliationRunsGet } from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { Problem } from '../../ui/problem.js';
import { Badge, Empty, Loading, Time } from '../../ui/table.js';

/** The exceptions a run names that the page reads the titles of; the rest are listed by id. */
const TITLED = 50;

/** A reconciliation run: its counts, its failure if any, and the exceptions its mismatches opened. */
export function ReconciliationRunScreen() {
  const { client, tenant } = useConsole();
  const { params } = useRoute();
  const connectionId = params.id!;
  const runId = params.run!;
  const run = useLoad(
    async () => (await reconciliationRunsGet({ client, path: { tenant_id: tenant, run_id: runId } })).data,
    [tenant, runId],
  );
  const ids = run.data?.exception_ids ?? [];
  const exceptions = useLoad(
    async () =>
      Promise.all(
        ids.slice(0, TITLED).map((id) =>
          exceptionsGet({ client, path: { tenant_id: tenant, exception_id: id } }).then(
            ({ data }) => data,
            () => undefined,
          ),
        ),
      ),
    [tenant, ids.join(',')],
  );
  const connectionPath = tenantPath(tenant, `integrations/${encodeURIComponent(connectionId)}`);

  return (
    <section aria-labelledby="title">
      <p class="crumbs">
        <a href={tenantPath(tenant, 'integrations')}>Integrations</a> /{' '}
        <a href={connectionPath}>Connection</a> /
      </p>
      <h1 id="title">Reconciliation run</h1>
      {run.state === 'loading' ? (
        <Loading />
      ) : run.state === 'error' ? (
        <Problem error={run.error} />
      ) : run.data.connection_id !== connectionId ? (
        <div class="problem" role="alert">
          Not found: this run belongs to another connection.
        </div>
      ) : (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={run.data.status} />
            </dd>
            <dt>Rule set</dt>
            <dd class="mono">{run.data.rule_set}</dd>
            <dt>Started</dt>
            <dd>
              <Time at={run.data.created_at} seconds />
            </dd>
            <dt>Completed</dt>
            <dd>
              <Time at={run.data.completed_at} seconds />
            </dd>
            <dt>Matched</dt>
            <dd>{run.data.matched}</dd>
            <dt>Mismatched</dt>
            <dd>{run.data.mismatched}</dd>
            <dt>Missing at the provider</dt>
            <dd>{run.data.missing_in_provider}</dd>
            <dt>Missing here</dt>
            <dd>{run.data.missing_locally}</dd>
            {run.data.error ? (
              <>
                <dt>Error</dt>
                <dd class="mono">{run.data.error}</dd>
              </>
            ) : null}
          </dl>
          <h2>Exceptions it opened</h2>
          {ids.length === 0 ? (
            <Empty>No mismatches: this run opened no exception.</Empty>
          ) : (
            <table class="list" data-testid="run-exceptions">
              <thead>
                <tr>
                  <th scope="col">Exception</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Status</th>
                  <th scope="col">Type</th>
                </tr>
              </thead>
              <tbody>
                {ids.map((id, i) => {
                  const x = exceptions.data?.[i];
                  return (
                    <tr key={id}>
                      <td class="title">
                        <a href={tenantPath(tenant, `exceptions/${encodeURIComponent(id)}`)}>
                          {x?.title ?? id}
                        </a>
                      </td>
                      <td>{x ? <Badge value={x.severity} /> : null}</td>
                      <td>{x ? <Badge value={x.status} /> : null}</td>
                      <td class="mono">{x?.exception_type}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
