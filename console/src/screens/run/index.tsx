import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  workflowRulesGet,
  workflowRunsGet,
  workflowRunsReplay,
  type WorkflowRunRead,
} from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { useMemberNames } from '../../ui/members.js';
import { isConflict, Problem } from '../../ui/problem.js';
import { Badge, Loading, Time } from '../../ui/table.js';
import { usePoll } from './poll.js';
import { Subject } from './subject.js';

/** One run of a rule: what fired it, what it is about, each action's outcome and error; replay. */
export function RunScreen() {
  const { client, tenant, can } = useConsole();
  const { params } = useRoute();
  const id = params.id!;
  const run = useLoad(
    async () => (await workflowRunsGet({ client, path: { tenant_id: tenant, workflow_run_id: id } })).data,
    [tenant, id],
  );
  const ruleId = run.data?.rule_id;
  const rule = useLoad(
    async () =>
      ruleId
        ? (await workflowRulesGet({ client, path: { tenant_id: tenant, rule_id: ruleId } })).data
        : undefined,
    [tenant, ruleId],
  );
  // A replayed run acts on the worker: the page follows it until it ends (or waits on a delay).
  usePoll(run.reload, run.data?.status === 'running');

  return (
    <section aria-labelledby="title">
      <p class="crumbs">
        <a href={tenantPath(tenant, 'rules')}>Workflow rules</a> /
        {ruleId ? (
          <>
            {' '}
            <a href={tenantPath(tenant, `rules/${encodeURIComponent(ruleId)}`)}>
              {rule.data?.name ?? 'the rule'}
            </a>{' '}
            /
          </>
        ) : null}
      </p>
      {run.state === 'loading' ? (
        <Loading />
      ) : run.state === 'error' ? (
        <>
          <h1 id="title">Workflow run</h1>
          <Problem error={run.error} />
        </>
      ) : (
        <>
          <h1 id="title">
            Run of {rule.data?.name ?? 'a rule'} <Badge value={run.data.status} />
          </h1>
          <RunFacts r={run.data} ruleGone={rule.state === 'error'} />
          {can('workflow_rules.manage') ? <Replay r={run.data} onReplayed={run.reload} /> : null}
          <h2>Actions</h2>
          <RunActions r={run.data} />
          <Replays r={run.data} />
        </>
      )}
    </section>
  );
}

function RunFacts({ r, ruleGone }: { r: WorkflowRunRead; ruleGone: boolean }) {
  const { tenant } = useConsole();
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd data-testid="run-status">
        <Badge value={r.status} />
        {r.status === 'failed' ? (
          <>
            {' '}
            <a href={tenantPath(tenant, 'review?kind=workflow_action')}>its review item</a>
          </>
        ) : null}
      </dd>
      <dt>Fired on</dt>
      <dd>
        {r.trigger.event_type ? (
          <>
            <span class="mono">{r.trigger.event_type}</span>{' '}
            <span class="muted mono">{r.trigger.event_id}</span>
          </>
        ) : (
          <>
            schedule, for <Time at={r.trigger.scheduled_for} />
          </>
        )}
      </dd>
      <dt>About</dt>
      <dd>
        <Subject tenant={tenant} type={r.subject_type} id={r.subject_id} />
      </dd>
      <dt>Rule version</dt>
      <dd>
        {r.rule_version}
        {ruleGone ? <span class="muted"> (the rule was deleted)</span> : null}
      </dd>
      <dt>Started</dt>
      <dd>
        <Time at={r.created_at} seconds />
      </dd>
      <dt>Ended</dt>
      <dd>
        <Time at={r.finished_at} seconds />
      </dd>
    </dl>
  );
}

function RunActions({ r }: { r: WorkflowRunRead }) {
  const { tenant } = useConsole();
  return (
    <table class="list" data-testid="run-actions">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Action</th>
          <th scope="col">Outcome</th>
          <th scope="col">Made</th>
          <th scope="col">Error</th>
          <th scope="col">At</th>
        </tr>
      </thead>
      <tbody>
        {r.actions.map((a) => (
          <tr key={a.index}>
            <td>{a.index + 1}</td>
            <td>{a.type.replace('_', ' ')}</td>
            <td>
              <Badge value={a.status} />
            </td>
            <td>
              {a.result?.task_id ? (
                <a href={tenantPath(tenant, 'tasks?who=all')}>
                  task <span class="mono">{a.result.task_id}</span>
                </a>
              ) : a.result?.notification_id ? (
                <>
                  message <span class="mono">{a.result.notification_id}</span>
                </>
              ) : a.result?.status ? (
                <>status {a.result.status}</>
              ) : (
                <span class="muted">–</span>
              )}
            </td>
            <td class="detail">
              {a.error ? (
                <>
                  <span class="mono">{a.error.code}</span>: {a.error.message}
                </>
              ) : (
                <span class="muted">–</span>
              )}
            </td>
            <td>
              <Time at={a.at} seconds />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Replays({ r }: { r: WorkflowRunRead }) {
  const nameOf = useMemberNames();
  if (r.replays.length === 0) return null;
  return (
    <>
      <h2>Replays</h2>
      <ol class="timeline" data-testid="replays">
        {r.replays.map((p, i) => (
          <li key={i}>
            <Time at={p.at} seconds /> by {nameOf(p.actor_id)}, with rule version {p.rule_version}
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * Replays an ended run with the rule as it stands now: its actions not done run again, a done
 * one never. A run acting or waiting cannot be replayed (409), so the button is not offered.
 */
function Replay({ r, onReplayed }: { r: WorkflowRunRead; onReplayed: () => void }) {
  const { client, tenant } = useConsole();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  if (r.status === 'running' || r.status === 'waiting' || !r.actions.some((a) => a.status !== 'done'))
    return error ? <Problem error={error} /> : null;

  const replay = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await workflowRunsReplay({ client, path: { tenant_id: tenant, workflow_run_id: r.id } });
      onReplayed();
    } catch (err) {
      setError(err);
      if (isConflict(err)) onReplayed();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="actions">
      <span>Runs the actions not done again, with the rule as it is now.</span>
      <button type="button" class="primary" disabled={busy} onClick={() => void replay()}>
        Replay this run
      </button>
      {error ? <Problem error={error} /> : null}
    </div>
  );
}
