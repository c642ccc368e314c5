import { useLocation } from 'preact-iso';
import { useEffect, useLayoutEffect } from 'preact/hooks';
import { exceptionsList } from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { Badge, Pager, Time, withQuery, Listing } from '../../ui/table.js';

const STATUSES = ['open', 'acknowledged', 'resolved'] as const;
const SEVERITIES = ['critical', 'warning', 'info'] as const;

const pick = <T extends string>(all: readonly T[], value: string | undefined): T | undefined =>
  all.find((v) => v === value);

/**
 * The exceptions, newest first, like an incident list: filters and page in the URL (status,
 * severity, type, subject type, cursor), one dense row per exception, its title the link to it.
 */
export function ExceptionsScreen() {
  const { client, tenant } = useConsole();
  const { query, route } = useLocation();
  const status = pick(STATUSES, query.status);
  const severity = pick(SEVERITIES, query.severity);
  const exceptionType = query.type || undefined;
  const subjectType = query.subject_type || undefined;
  const cursor = query.cursor || undefined;
  // The page size, in the URL like the rest (the API takes 1 to 100).
  const limit = Math.min(100, Math.max(1, Number.parseInt(query.limit ?? '', 10) || 50));
  const list = useLoad(async () => {
    const { data } = await exceptionsList({
      client,
      path: { tenant_id: tenant },
      query: { status, severity, type: exceptionType, subject_type: subjectType, cursor, limit },
    });
    performance.mark('exceptions:data');
    return data;
  }, [tenant, status, severity, exceptionType, subjectType, cursor, limit]);
  // `npm run bench` reads these marks: the rows in the DOM (layout effects run before the paint)
  // and on screen (effects run after it).
  useLayoutEffect(() => {
    if (list.state === 'ok') performance.mark('exceptions:committed');
  }, [list.state, list.data]);
  useEffect(() => {
    if (list.state === 'ok') performance.mark('exceptions:rendered');
  }, [list.state, list.data]);
  const filter = (name: string, value: string) => route(withQuery({ [name]: value, cursor: undefined }));

  return (
    <section aria-labelledby="title">
      <h1 id="title">Exceptions</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status{' '}
          <select
            name="status"
            value={status ?? ''}
            onChange={(e) => filter('status', e.currentTarget.value)}
          >
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Severity{' '}
          <select
            name="severity"
            value={severity ?? ''}
            onChange={(e) => filter('severity', e.currentTarget.value)}
          >
            <option value="">any</option>
            {SEVERITIES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Type{' '}
          {/* Uncontrolled, keyed by the URL's value: a re-render (a list load, the header's unread
              count) must not wipe what the operator is typing before it is committed on change. */}
          <input
            key={exceptionType ?? ''}
            name="type"
            defaultValue={exceptionType ?? ''}
            placeholder="any"
            size={24}
            onChange={(e) => filter('type', e.currentTarget.value.trim())}
          />
        </label>
        <label>
          Subject type{' '}
          <input
            key={subjectType ?? ''}
            name="subject_type"
            defaultValue={subjectType ?? ''}
            placeholder="any"
            size={12}
            onChange={(e) => filter('subject_type', e.currentTarget.value.trim())}
          />
        </label>
      </form>
      <Listing list={list} empty={'No exceptions match these filters.'}>
        {(data) => (
          <>
            <table class="list" data-testid="exceptions">
              <thead>
                <tr>
                  <th scope="col">Severity</th>
                  <th scope="col">Status</th>
                  <th scope="col">Title</th>
                  <th scope="col">Type</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Escalation</th>
                  <th scope="col">Detected</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((x) => (
                  <tr key={x.id}>
                    <td>
                      <Badge value={x.severity} />
                    </td>
                    <td>
                      <Badge value={x.status} />
                    </td>
                    <td class="title">
                      <a href={tenantPath(tenant, `exceptions/${encodeURIComponent(x.id)}`)}>{x.title}</a>
                    </td>
                    <td class="mono">{x.exception_type}</td>
                    <td>
                      {x.subject_type} <span class="mono">{x.subject_id}</span>
                    </td>
                    <td>{x.escalation ? `level ${x.escalation.level}` : <span class="muted">–</span>}</td>
                    <td>
                      <Time at={x.detected_at} />
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
