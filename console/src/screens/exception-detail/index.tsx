import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  auditList,
  type BusinessExceptionRead,
  exceptionsChangeStatus,
  exceptionsGet,
} from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { FieldError, isConflict, Problem } from '../../ui/problem.js';
import { useMemberNames } from '../../ui/members.js';
import { Badge, Empty, Loading, Time } from '../../ui/table.js';

/** One exception: what it is about, its evidence and impact, escalation, history, and its actions. */
export function ExceptionDetail() {
  const { client, tenant, can } = useConsole();
  const { params } = useRoute();
  const id = params.id!;
  const nameOf = useMemberNames();
  const exception = useLoad(
    async () => (await exceptionsGet({ client, path: { tenant_id: tenant, exception_id: id } })).data,
    [tenant, id],
  );
  const history = useLoad(
    async () =>
      can('audit.read')
        ? (
            await auditList({
              client,
              path: { tenant_id: tenant },
              query: { entity_type: 'exception', entity_id: id, limit: 100 },
            })
          ).data.items
        : undefined,
    [tenant, id, exception.state === 'ok' ? exception.data.updated_at : ''],
  );

  return (
    <section aria-labelledby="title">
      <p class="crumbs">
        <a href={tenantPath(tenant, 'exceptions')}>Exceptions</a> /
      </p>
      {exception.state === 'loading' ? (
        <Loading />
      ) : exception.state === 'error' ? (
        <>
          <h1 id="title">Exception</h1>
          <Problem error={exception.error} />
        </>
      ) : (
        <>
          <h1 id="title">{exception.data.title}</h1>
          <Facts x={exception.data} />
          {can('exceptions.write') ? <Actions x={exception.data} onChanged={exception.reload} /> : null}
          <h2>Evidence</h2>
          <JsonFacts text={exception.data.evidence_json} none="No evidence recorded." />
          <h2>Impact</h2>
          <JsonFacts text={exception.data.impact_json} none="No impact recorded." />
          {can('audit.read') ? (
            <>
              <h2>Timeline</h2>
              {history.state === 'loading' ? (
                <Loading />
              ) : history.state === 'error' ? (
                <Problem error={history.error} />
              ) : (
                <ol class="timeline">
                  {[...(history.data ?? [])].reverse().map((e) => (
                    <li key={e.id}>
                      <Time at={e.created_at} seconds /> <span class="mono">{e.event_type}</span> {e.summary}
                      <span class="muted"> by {nameOf(e.actor_id)}</span>
                    </li>
                  ))}
                </ol>
              )}
            </>
          ) : null}
        </>
      )}
    </section>
  );
}

function Facts({ x }: { x: BusinessExceptionRead }) {
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>
        <Badge value={x.status} />
      </dd>
      <dt>Severity</dt>
      <dd>
        <Badge value={x.severity} />
      </dd>
      <dt>Type</dt>
      <dd class="mono">{x.exception_type}</dd>
      <dt>Subject</dt>
      <dd>
        {x.subject_type} <span class="mono">{x.subject_id}</span>
      </dd>
      <dt>Summary</dt>
      <dd>{x.summary}</dd>
      <dt>Detected</dt>
      <dd>
        <Time at={x.detected_at} />
      </dd>
      <dt>Resolved</dt>
      <dd>
        <Time at={x.resolved_at} />
      </dd>
      <dt>Escalation</dt>
      <dd data-testid="escalation">
        {x.escalation ? (
          <>
            next level {x.escalation.level} at <Time at={x.escalation.next_at} />{' '}
            <span class="muted">(policy {x.escalation.policy_id})</span>
          </>
        ) : x.status === 'resolved' ? (
          'ended: resolved'
        ) : (
          'no escalation pending'
        )}
      </dd>
    </dl>
  );
}

function JsonFacts({ text, none }: { text: string; none: string }) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return <pre>{text}</pre>;
  }
  const entries = value && typeof value === 'object' ? Object.entries(value) : [];
  if (entries.length === 0) return <Empty>{none}</Empty>;
  return (
    <table class="kv">
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td class="mono">{typeof v === 'string' ? v : JSON.stringify(v)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Acknowledge or resolve with a note; a 409 (someone else changed it) shows it as it is now. */
function Actions({ x, onChanged }: { x: BusinessExceptionRead; onChanged: () => void }) {
  const { client, tenant } = useConsole();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');

  const change = async (status: 'acknowledged' | 'resolved') => {
    setBusy(true);
    setError(undefined);
    try {
      await exceptionsChangeStatus({
        client,
        path: { tenant_id: tenant, exception_id: x.id },
        body: { status, ...(note.trim() ? { note: note.trim() } : {}) },
      });
      setNote('');
      onChanged();
    } catch (err) {
      setError(err);
      if (isConflict(err)) onChanged();
    } finally {
      setBusy(false);
    }
  };

  if (x.status === 'resolved') return error ? <Problem error={error} /> : null;
  return (
    <form class="actions" onSubmit={(e) => e.preventDefault()}>
      <label for="note">Note</label>
      <input
        id="note"
        name="note"
        value={note}
        maxLength={255}
        size={50}
        placeholder="What you did or found"
        aria-describedby="note-error"
        onInput={(e) => setNote(e.currentTarget.value)}
      />
      <FieldError error={error} path="note" id="note-error" />
      {x.status === 'open' ? (
        <button type="button" disabled={busy} onClick={() => void change('acknowledged')}>
          Acknowledge
        </button>
      ) : null}
      <button type="button" disabled={busy} onClick={() => void change('resolved')}>
        Resolve
      </button>
      {error ? <Problem error={error} /> : null}
    </form>
  );
}
