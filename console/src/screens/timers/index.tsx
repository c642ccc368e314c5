import { useLocation } from 'preact-iso';
import { type TimerRead, timersList } from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { Listing, Pager, Time, withQuery, QueryFilter } from '../../ui/table.js';
import { Subject } from '../run/subject.js';

const KINDS = [
  'rule_schedule',
  'rule_delay',
  'escalation',
  'ack_timeout',
  'task_due',
  'document_due',
  'hub_schedule',
  'oauth_refresh',
  'export_window',
  'notification_release',
  'notification_digest',
  'webhook_retry',
] as const;

/** What each kind of timer will do when it fires, in the operator's words. */
const WHAT: Record<TimerRead['kind'], (t: TimerRead) => string> = {
  rule_schedule: () => 'a scheduled rule runs',
  rule_delay: () => "a rule's run goes on after its delay",
  escalation: (t) => `escalation level ${t.level ?? ''} fires`,
  ack_timeout: () => 'the acknowledgement time runs out',
  task_due: () => 'the task becomes overdue',
  document_due: () => 'the document becomes overdue',
  hub_schedule: () => 'a connection syncs on its schedule',
  oauth_refresh: () => "a connection's access is refreshed",
  export_window: () => 'an accounting export window closes',
  notification_release: () => 'a message held by quiet hours is sent',
  notification_digest: () => 'a digest is sent',
  webhook_retry: () => 'a webhook message is tried again',
};

/** "in 14 min", "in 3 h", "in 2 days"; "due now" once past (the worker fires it shortly). */
function fromNow(at: string): string {
  const minutes = Math.round((Date.parse(at) - Date.now()) / 60_000);
  if (minutes <= 0) return 'due now';
  if (minutes < 90) return `in ${minutes} min`;
  if (minutes < 48 * 60) return `in ${Math.round(minutes / 60)} h`;
  return `in ${Math.round(minutes / 1440)} days`;
}

/** The tenant's pending timers, soonest first: what the service will do next on its own. */
export function TimersScreen() {
  const { client, tenant } = useConsole();
  const { query } = useLocation();
  const kind = KINDS.find((k) => k === query.kind);
  const cursor = query.cursor || undefined;
  const list = useLoad(
    async () =>
      (await timersList({ client, path: { tenant_id: tenant }, query: { kind, cursor, limit: 50 } })).data,
    [tenant, kind, cursor],
  );

  return (
    <section aria-labelledby="title">
      <h1 id="title">Timers</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <QueryFilter label="Kind" name="kind" value={kind} options={KINDS} />
      </form>
      <Listing list={list} empty={kind ? 'No timers of this kind are pending.' : 'Nothing is scheduled.'}>
        {(data) => (
          <>
            <table class="list" data-testid="timers">
              <thead>
                <tr>
                  <th scope="col">Due</th>
                  <th scope="col">What happens</th>
                  <th scope="col">About</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <Time at={t.due_at} /> <span class="muted nowrap">{fromNow(t.due_at)}</span>
                    </td>
                    <td>
                      {WHAT[t.kind](t)}
                      {t.rule_id && t.subject_type !== 'workflow_rule' ? (
                        <>
                          {' '}
                          <a href={tenantPath(tenant, `rules/${encodeURIComponent(t.rule_id)}`)}>
                            (its rule)
                          </a>
                        </>
                      ) : null}
                      <br />
                      <span class="mono muted kind">{t.kind}</span>
                    </td>
                    <td>
                      <Subject tenant={tenant} type={t.subject_type} id={t.subject_id} short />
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
