import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  type ReviewItemRead,
  reviewItemsDecide,
  reviewItemsList,
} from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { isConflict, Problem } from '../../ui/problem.js';
import { Badge, Pager, Time, withQuery, Listing, QueryFilter } from '../../ui/table.js';

const KINDS = [
  'notification',
  'workflow_action',
  'accounting_export',
  'integration_issue',
  'webhook_endpoint',
] as const;
const STATUSES = ['open', 'retried', 'discarded', 'resolved'] as const;

/** The jobs a person must decide: by kind and status (open by default), retry or discard each. */
export function ReviewScreen() {
  const { client, tenant, can } = useConsole();
  const { query, route } = useLocation();
  const kind = KINDS.find((k) => k === query.kind);
  const status = query.status === 'any' ? undefined : (STATUSES.find((s) => s === query.status) ?? 'open');
  const cursor = query.cursor || undefined;
  const [error, setError] = useState<unknown>();
  // A retried message that fails again opens a new item for the same subject, often before the
  // list reloads: without this line the row looks as if nothing happened.
  const [decided, setDecided] = useState<string>();
  const list = useLoad(
    async () =>
      (
        await reviewItemsList({
          client,
          path: { tenant_id: tenant },
          query: { kind, status, cursor, limit: 50 },
        })
      ).data,
    [tenant, kind, status, cursor],
  );

  const decide = async (item: ReviewItemRead, action: 'retry' | 'discard') => {
    setError(undefined);
    setDecided(undefined);
    try {
      await reviewItemsDecide({
        client,
        path: { tenant_id: tenant, review_item_id: item.id },
        body: { action },
      });
      setDecided(
        `${action === 'retry' ? 'Retried' : 'Discarded'}: ${item.kind.replace('_', ' ')} ${item.subject_id}.`,
      );
    } catch (err) {
      setError(err);
      if (!isConflict(err)) return;
    }
    list.reload();
  };

  const deciding = can('review_items.decide');
  return (
    <section aria-labelledby="title">
      <h1 id="title">Review queue</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <QueryFilter label="Kind" name="kind" value={kind} options={KINDS} />
        <label>
          Status{' '}
          <select
            name="status"
            value={status ?? 'any'}
            onChange={(e) =>
              route(
                withQuery({
                  status: e.currentTarget.value === 'open' ? undefined : e.currentTarget.value,
                  cursor: undefined,
                }),
              )
            }
          >
            <option value="any">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </form>
      {error ? <Problem error={error} /> : null}
      {decided ? (
        <p role="status" class="ok">
          {decided}
        </p>
      ) : null}
      <Listing list={list} empty={'Nothing to review here.'}>
        {(data) => (
          <>
            <table class="list" data-testid="review-items">
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Detail</th>
                  <th scope="col">Status</th>
                  <th scope="col">Opened</th>
                  {deciding ? <th scope="col">Decide</th> : null}
                </tr>
              </thead>
              <tbody>
                {data.items.map((r) => (
                  <tr key={r.id}>
                    <td>{r.kind.replace('_', ' ')}</td>
                    <td>
                      {r.channel ? `${r.channel} message ` : null}
                      {r.kind === 'workflow_action' ? (
                        // A failed run's item: its page says which action failed and replays it.
                        <a href={tenantPath(tenant, `runs/${encodeURIComponent(r.subject_id)}`)}>
                          run <span class="mono">{r.subject_id}</span>
                        </a>
                      ) : (
                        <span class="mono">{r.subject_id}</span>
                      )}
                    </td>
                    <td>
                      <Badge value={r.reason} />
                    </td>
                    <td class="detail">{r.detail}</td>
                    <td>
                      <Badge value={r.status} />
                      {r.decision ? <span class="muted"> {r.decision}</span> : null}
                    </td>
                    <td>
                      <Time at={r.created_at} />
                    </td>
                    {deciding ? (
                      <td class="row-actions">
                        {r.status === 'open' ? (
                          <>
                            <button
                              type="button"
                              aria-label={`Retry ${r.subject_id}`}
                              onClick={() => void decide(r, 'retry')}
                            >
                              Retry
                            </button>
                            <button
                              type="button"
                              aria-label={`Discard ${r.subject_id}`}
                              onClick={() => void decide(r, 'discard')}
                            >
                              Discard
                            </button>
                          </>
                        ) : null}
                      </td>
                    ) : null}
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
