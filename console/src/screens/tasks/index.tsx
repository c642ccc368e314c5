import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { type TaskRead, tasksChangeStatus, tasksList } from '../../../../clients/typescript/index.js';
import { useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { isConflict, Problem } from '../../ui/problem.js';
import { Badge, Pager, Time, withQuery, Listing, QueryFilter } from '../../ui/table.js';

const STATUSES = ['open', 'in_progress', 'done', 'cancelled'] as const;
type Status = (typeof STATUSES)[number];

/** The moves docs/api.md allows from each status, as the buttons of a row. */
const MOVES: Record<Status, { to: Status; label: string }[]> = {
  open: [
    { to: 'in_progress', label: 'Start' },
    { to: 'done', label: 'Done' },
    { to: 'cancelled', label: 'Cancel' },
  ],
  in_progress: [
    { to: 'done', label: 'Done' },
    { to: 'open', label: 'Reopen' },
    { to: 'cancelled', label: 'Cancel' },
  ],
  done: [],
  cancelled: [],
};

/** Tasks: mine or everyone's, by status; each open one moves on with a button. */
export function TasksScreen() {
  const { client, tenant, me, can } = useConsole();
  const { query, route } = useLocation();
  const mine = query.who !== 'all';
  const status = STATUSES.find((s) => s === query.status);
  const cursor = query.cursor || undefined;
  const [error, setError] = useState<unknown>();
  const list = useLoad(
    async () =>
      (
        await tasksList({
          client,
          path: { tenant_id: tenant },
          query: { status, assignee_id: mine ? me.user.id : undefined, cursor, limit: 50 },
        })
      ).data,
    [tenant, mine, status, cursor],
  );

  const move = async (task: TaskRead, to: Status) => {
    setError(undefined);
    try {
      await tasksChangeStatus({
        client,
        path: { tenant_id: tenant, task_id: task.id },
        body: { status: to },
      });
    } catch (err) {
      setError(err);
      if (!isConflict(err)) return;
    }
    list.reload();
  };

  return (
    <section aria-labelledby="title">
      <h1 id="title">Tasks</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Whose{' '}
          <select
            name="who"
            value={mine ? 'mine' : 'all'}
            onChange={(e) =>
              route(
                withQuery({ who: e.currentTarget.value === 'all' ? 'all' : undefined, cursor: undefined }),
              )
            }
          >
            <option value="mine">mine</option>
            <option value="all">everyone's</option>
          </select>
        </label>
        <QueryFilter label="Status" name="status" value={status} options={STATUSES} />
      </form>
      {error ? <Problem error={error} /> : null}
      <Listing list={list} empty={mine ? 'No tasks assigned to you match.' : 'No tasks match.'}>
        {(data) => (
          <>
            <table class="list" data-testid="tasks">
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Title</th>
                  <th scope="col">Assignee</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Due</th>
                  <th scope="col">Created</th>
                  {can('tasks.write') ? <th scope="col">Change status</th> : null}
                </tr>
              </thead>
              <tbody>
                {data.items.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <Badge value={t.status} />
                    </td>
                    <td class="title">{t.title}</td>
                    <td>{t.assignee_id === me.user.id ? 'me' : (t.assignee_role ?? t.assignee_id ?? '–')}</td>
                    <td>{t.subject_type ? `${t.subject_type} ${t.subject_id}` : '–'}</td>
                    <td>
                      <Time at={t.due_at} />
                    </td>
                    <td>
                      <Time at={t.created_at} />
                    </td>
                    {can('tasks.write') ? (
                      <td class="row-actions">
                        {MOVES[t.status].map((m) => (
                          <button
                            type="button"
                            key={m.to}
                            aria-label={`${m.label}: ${t.title}`}
                            onClick={() => void move(t, m.to)}
                          >
                            {m.label}
                          </button>
                        ))}
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
