import { useLocation } from 'preact-iso';
import { workflowRunsList } from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { Badge, Listing, Pager, Time, withQuery, QueryFilter } from '../../ui/table.js';
import { usePoll } from './poll.js';
import { Subject } from './subject.js';

export const RUN_STATUSES = ['running', 'waiting', 'succeeded', 'failed'] as const;

/** A rule's runs, newest first, by status (`?status=` in the URL, with the page's cursor). */
export function RunsOfRule({ ruleId }: { ruleId: string }) {
  const { client, tenant } = useConsole();
  const { query } = useLocation();
  const status = RUN_STATUSES.find((s) => s === query.status);
  const cursor = query.cursor || undefined;
  const list = useLoad(
    async () =>
      (
        await workflowRunsList({
          client,
          path: { tenant_id: tenant },
          query: { rule_id: ruleId, status, cursor, limit: 25 },
        })
      ).data,
    [tenant, ruleId, status, cursor],
  );
  usePoll(list.reload, list.data?.items.some((r) => r.status === 'running') ?? false);

  return (
    <>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <QueryFilter label="Status" name="status" value={status} options={RUN_STATUSES} />
      </form>
      <Listing
        list={list}
        empty={status ? `No ${status} runs in the last 30 days.` : 'No runs in the last 30 days.'}
      >
        {(data) => (
          <>
            <table class="list" data-testid="runs">
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Status</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Actions</th>
                  <th scope="col">Replays</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((r) => (
                  <tr key={r.id} data-run={r.id}>
                    <td>
                      <a href={tenantPath(tenant, `runs/${encodeURIComponent(r.id)}`)}>
                        <Time at={r.created_at} seconds />
                      </a>
                    </td>
                    <td>
                      <Badge value={r.status} />
                    </td>
                    <td class="mono">{r.trigger.event_type ?? 'schedule'}</td>
                    <td>
                      <Subject tenant={tenant} type={r.subject_type} id={r.subject_id} short />
                    </td>
                    <td>
                      {r.actions.map((a) => (
                        <span key={a.index} class={`step step-${a.status}`}>
                          {a.type.replace('_', ' ')}: {a.status}
                        </span>
                      ))}
                    </td>
                    <td>{r.replays.length || ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager next={data.next_cursor} href={(c) => withQuery({ cursor: c })} />
          </>
        )}
      </Listing>
    </>
  );
}
