import { useLocation, useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  workflowReplaysGet,
  workflowRulesGet,
  workflowRulesReplay,
  workflowRulesTest,
  type WorkflowRuleRead,
  type WorkflowRuleTestRead,
} from '../../../../clients/typescript/index.js';
import { RECORDED_EVENT_TYPES } from '../../../../shared/kernel/event-types.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { FieldError, Problem } from '../../ui/problem.js';
import { Badge, Loading, Time, withQuery } from '../../ui/table.js';
import { usePoll } from '../run/poll.js';
import { RunsOfRule } from '../run/runs.js';
import { actionSummary, conditionSummary, triggerSummary } from './describe.js';

/** One rule: what it does, a try on a sample event, its runs by status, and a replay of its failures. */
export function RuleScreen() {
  const { client, tenant, can } = useConsole();
  const { params } = useRoute();
  const id = params.id!;
  const rule = useLoad(
    async () => (await workflowRulesGet({ client, path: { tenant_id: tenant, rule_id: id } })).data,
    [tenant, id],
  );
  const manage = can('workflow_rules.manage');

  return (
    <section aria-labelledby="title">
      <p class="crumbs">
        <a href={tenantPath(tenant, 'rules')}>Workflow rules</a> /
      </p>
      {rule.state === 'loading' ? (
        <Loading />
      ) : rule.state === 'error' ? (
        <>
          <h1 id="title">Workflow rule</h1>
          <Problem error={rule.error} />
        </>
      ) : (
        <>
          <h1 id="title">{rule.data.name}</h1>
          <RuleFacts r={rule.data} />
          {manage ? (
            <p>
              <a class="button" href={tenantPath(tenant, `rules/${encodeURIComponent(id)}/edit`)}>
                Edit rule
              </a>
            </p>
          ) : null}
          {manage ? <TryRule r={rule.data} /> : null}
          <h2>Runs</h2>
          {manage ? <ReplayFailed ruleId={id} /> : null}
          <RunsOfRule ruleId={id} />
        </>
      )}
    </section>
  );
}

function RuleFacts({ r }: { r: WorkflowRuleRead }) {
  return (
    <dl class="facts">
      <dt>State</dt>
      <dd>
        <Badge value={r.enabled ? 'enabled' : 'disabled'} /> <span class="muted">version {r.version}</span>
      </dd>
      <dt>When</dt>
      <dd class="mono">{triggerSummary(r.trigger)}</dd>
      {r.next_run_at ? (
        <>
          <dt>Next run</dt>
          <dd>
            <Time at={r.next_run_at} />
          </dd>
        </>
      ) : null}
      <dt>Only if</dt>
      <dd>
        {r.conditions.length ? (
          <ul class="plain">
            {r.conditions.map((c, i) => (
              <li key={i} class="mono">
                {conditionSummary(c)}
              </li>
            ))}
          </ul>
        ) : (
          <span class="muted">always</span>
        )}
      </dd>
      <dt>Then</dt>
      <dd>
        <ol class="plain-numbered">
          {r.actions.map((a, i) => (
            <li key={i}>{actionSummary(a)}</li>
          ))}
        </ol>
      </dd>
      <dt>Changed</dt>
      <dd>
        <Time at={r.updated_at} />
      </dd>
    </dl>
  );
}

/** A sample record: the fields the conditions read, with values that pass, so a first try matches. */
function sampleEntity(r: WorkflowRuleRead): string {
  const entity: Record<string, unknown> = { id: 'sample-1' };
  for (const c of r.conditions) {
    if (c.field.includes('.')) continue;
    if (c.op === 'eq' || c.op === 'contains') entity[c.field] = c.value;
    else if (c.op === 'in') entity[c.field] = c.value[0];
    else if (c.op === 'exists' && c.value) entity[c.field] = 'x';
  }
  return JSON.stringify(entity, null, 2);
}

/** The rule's test operation: what it would do with a sample event, changing nothing. */
function TryRule({ r }: { r: WorkflowRuleRead }) {
  const { client, tenant } = useConsole();
  const own = 'event_type' in r.trigger ? r.trigger.event_type : RECORDED_EVENT_TYPES[0];
  const [eventType, setEventType] = useState<string>(own);
  const [entity, setEntity] = useState(() => sampleEntity(r));
  const [error, setError] = useState<unknown>();
  const [entityError, setEntityError] = useState('');
  const [result, setResult] = useState<WorkflowRuleTestRead>();

  const run = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setResult(undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(entity);
    } catch {
      setEntityError('The record must be JSON, like {"severity": "critical"}.');
      return;
    }
    setEntityError('');
    try {
      const { data } = await workflowRulesTest({
        client,
        path: { tenant_id: tenant, rule_id: r.id },
        body: {
          event: {
            event_type: eventType as (typeof RECORDED_EVENT_TYPES)[number],
            entity: parsed as Record<string, unknown>,
          },
        },
      });
      setResult(data);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <details class="try">
      <summary>Try it on a sample event</summary>
      <form onSubmit={(e) => void run(e)}>
        <div class="field">
          <label for="try-type">Event type</label>
          <select id="try-type" value={eventType} onChange={(e) => setEventType(e.currentTarget.value)}>
            {RECORDED_EVENT_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="try-entity">Record (JSON)</label>
          <textarea
            id="try-entity"
            class="mono"
            rows={6}
            value={entity}
            aria-describedby="try-entity-error"
            onInput={(e) => setEntity(e.currentTarget.value)}
          />
          {entityError ? (
            <span class="field-error" id="try-entity-error" role="alert">
              {entityError}
            </span>
          ) : (
            <FieldError error={error} path="event.entity" id="try-entity-error" />
          )}
        </div>
        <p>
          <button type="submit">Try</button> <span class="muted">Nothing is written, sent or audited.</span>
        </p>
      </form>
      {error ? <Problem error={error} /> : null}
      {result ? <TestResult t={result} /> : null}
    </details>
  );
}

function TestResult({ t }: { t: WorkflowRuleTestRead }) {
  return (
    <div data-testid="test-result" role="status">
      <p>
        {t.matched ? (
          <strong class="ok">It would act:</strong>
        ) : !t.event_type_matched ? (
          <strong>It would do nothing: the rule is not triggered by this event type.</strong>
        ) : (
          <strong>It would do nothing: a condition fails.</strong>
        )}
      </p>
      {t.conditions.length ? (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Condition</th>
              <th scope="col">The record has</th>
              <th scope="col">Passes</th>
            </tr>
          </thead>
          <tbody>
            {t.conditions.map((c, i) => (
              <tr key={i}>
                <td class="mono">
                  {c.field} {c.op} {JSON.stringify(c.value)}
                </td>
                <td class="mono">{JSON.stringify(c.actual)}</td>
                <td>{c.passed ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {t.actions.length ? (
        <ol class="planned">
          {t.actions.map((a, i) => (
            <li key={i}>
              {a.type === 'create_task' ? (
                <>
                  create the task <q>{a.title}</q>
                  {a.assignee_role ? ` for ${a.assignee_role}` : ''}
                  {a.due_at ? (
                    <>
                      , due <Time at={a.due_at} />
                    </>
                  ) : null}
                  <Missing fields={a.missing_fields} />
                </>
              ) : a.type === 'notify' ? (
                <>
                  send a {a.channel.replace('_', '-')} message to {a.recipient ?? a.recipient_user_id}:{' '}
                  <q>
                    {a.subject ? `${a.subject}: ` : ''}
                    {a.body}
                  </q>
                  <Missing fields={a.missing_fields} />
                </>
              ) : a.type === 'delay' ? (
                <>
                  wait {a.minutes} minutes, until <Time at={a.until} />
                </>
              ) : (
                <>
                  move {a.subject_type ?? 'the subject'} {a.subject_id ?? ''} from {a.from ?? 'its status'} to{' '}
                  {a.status}
                </>
              )}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

const Missing = ({ fields }: { fields: string[] }) =>
  fields.length ? <span class="field-error"> No value for {fields.join(', ')}.</span> : null;

const isoDaysAgo = (days: number) => {
  const d = new Date(Date.now() - days * 86_400_000);
  d.setSeconds(0, 0);
  return d.toISOString();
};

/**
 * Replays the rule's failed runs of a period; the replay's id goes into the URL (`?replay=`), so
 * its progress stays on the page through a reload.
 */
function ReplayFailed({ ruleId }: { ruleId: string }) {
  const { client, tenant } = useConsole();
  const { query, route } = useLocation();
  const [since, setSince] = useState(() => isoDaysAgo(1));
  const [until, setUntil] = useState('');
  const [error, setError] = useState<unknown>();
  const replayId = query.replay || undefined;
  const replay = useLoad(
    async () =>
      replayId
        ? (await workflowReplaysGet({ client, path: { tenant_id: tenant, replay_id: replayId } })).data
        : undefined,
    [tenant, replayId],
  );
  usePoll(replay.reload, replay.data !== undefined && replay.data.status !== 'done');

  const ask = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const { data } = await workflowRulesReplay({
        client,
        path: { tenant_id: tenant, rule_id: ruleId },
        body: { status: 'failed', since: since.trim(), ...(until.trim() ? { until: until.trim() } : {}) },
      });
      route(withQuery({ replay: data.id }));
    } catch (err) {
      setError(err);
    }
  };

  return (
    <form class="actions replay" onSubmit={(e) => void ask(e)}>
      <span>Replay the failed runs started</span>
      <label>
        from{' '}
        <input
          value={since}
          size={24}
          class="mono"
          aria-describedby="replay-since-error"
          onInput={(e) => setSince(e.currentTarget.value)}
        />
      </label>
      <label>
        until{' '}
        <input
          value={until}
          size={24}
          class="mono"
          placeholder="now"
          aria-describedby="replay-until-error"
          onInput={(e) => setUntil(e.currentTarget.value)}
        />
      </label>
      <button type="submit">Replay failed runs</button>
      <FieldError error={error} path="since" id="replay-since-error" />
      <FieldError error={error} path="until" id="replay-until-error" />
      {error ? <Problem error={error} /> : null}
      {replay.state === 'error' ? <Problem error={replay.error} /> : null}
      {replay.data ? (
        <p class="progress" role="status" data-testid="replay-progress">
          Replay <Badge value={replay.data.status} />: {replay.data.replayed} of {replay.data.queued} replayed
          {replay.data.skipped ? `, ${replay.data.skipped} skipped (no longer failed)` : ''}.
        </p>
      ) : null}
    </form>
  );
}
