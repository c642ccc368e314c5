import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  type InboxItemRead,
  inboxList,
  inboxRead,
  inboxReadAll,
  inboxUnread,
} from '../../../../clients/typescript/index.js';
import { useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { Problem } from '../../ui/problem.js';
import { Badge, Pager, Time, withQuery, Listing } from '../../ui/table.js';

/** The member's own in-app messages: unread first by filter, mark one or all read. */
export function InboxScreen() {
  const { client, tenant, refreshUnread } = useConsole();
  const { query, route } = useLocation();
  const unreadOnly = query.show !== 'all';
  const cursor = query.cursor || undefined;
  const [error, setError] = useState<unknown>();
  const list = useLoad(
    async () =>
      (
        await inboxList({
          client,
          path: { tenant_id: tenant },
          query: { ...(unreadOnly ? { unread: true } : {}), cursor, limit: 50 },
        })
      ).data,
    [tenant, unreadOnly, cursor],
  );

  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(err);
    }
    list.reload();
    refreshUnread();
  };
  const toggle = (item: InboxItemRead) =>
    act(() =>
      (item.read_at ? inboxUnread : inboxRead)({
        client,
        path: { tenant_id: tenant, notification_id: item.notification_id },
      }),
    );

  return (
    <section aria-labelledby="title">
      <h1 id="title">Inbox</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Show{' '}
          <select
            name="show"
            value={unreadOnly ? 'unread' : 'all'}
            onChange={(e) =>
              route(
                withQuery({ show: e.currentTarget.value === 'all' ? 'all' : undefined, cursor: undefined }),
              )
            }
          >
            <option value="unread">unread</option>
            <option value="all">all</option>
          </select>
        </label>
        <button
          type="button"
          onClick={() => void act(() => inboxReadAll({ client, path: { tenant_id: tenant }, body: {} }))}
        >
          Mark all read
        </button>
      </form>
      {error ? <Problem error={error} /> : null}
      <Listing list={list} empty={unreadOnly ? 'Nothing unread.' : 'Your inbox is empty.'}>
        {(data) => (
          <>
            <table class="list" data-testid="inbox">
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Category</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Message</th>
                  <th scope="col">Read</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((m) => (
                  <tr key={m.notification_id} class={m.read_at ? '' : 'unread'}>
                    <td>
                      <Time at={m.created_at} />
                    </td>
                    <td>
                      <Badge value={m.category} />
                      {m.priority === 'critical' ? <Badge value="critical" /> : null}
                    </td>
                    <td class="title">{m.subject ?? <span class="muted">(no subject)</span>}</td>
                    <td class="detail">{m.body}</td>
                    <td class="row-actions">
                      <button
                        type="button"
                        aria-label={`${m.read_at ? 'Mark unread' : 'Mark read'}: ${m.subject ?? m.body}`}
                        onClick={() => void toggle(m)}
                      >
                        {m.read_at ? 'Mark unread' : 'Mark read'}
                      </button>
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
