import { useLocation, useRoute } from 'preact-iso';
import { useCallback, useState } from 'preact/hooks';
import {
  ApiError,
  eventTypesList,
  workflowRulesCreate,
  workflowRulesGet,
  workflowRulesUpdate,
  type WorkflowRuleRead,
} from '../../../../clients/typescript/index.js';
import { RECORDED_EVENT_TYPES } from '../../../../shared/kernel/event-types.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { FieldError, fieldErrors, isConflict, Problem } from '../../ui/problem.js';
import { Loading } from '../../ui/table.js';
import {
  ACTION_TYPES,
  type ActionDraft,
  bodyOf,
  CATEGORIES,
  CHANNELS,
  CONDITION_OPS,
  draftOf,
  EMPTY_RULE,
  newAction,
  ROLES,
  type RuleDraft,
  STATUSES,
} from './describe.js';

/** `rules/new` and `rules/:id/edit`: the rule's form; saved, it leads to the rule's page. */
export function RuleEditScreen() {
  const { client, tenant } = useConsole();
  const { params } = useRoute();
  const id = params.id;
  const rule = useLoad(
    async () =>
      id ? (await workflowRulesGet({ client, path: { tenant_id: tenant, rule_id: id } })).data : undefined,
    [tenant, id],
  );
  // Kept here, not in the form: the form starts again from the reloaded rule, the 409's message stays.
  const [conflict, setConflict] = useState<unknown>();
  const onConflict = useCallback(
    (err: unknown) => {
      setConflict(err);
      rule.reload();
    },
    [rule.reload],
  );
  return (
    <section aria-labelledby="title">
      <p class="crumbs">
        <a href={tenantPath(tenant, 'rules')}>Workflow rules</a> /
        {id && rule.state === 'ok' ? (
          <>
            {' '}
            <a href={tenantPath(tenant, `rules/${encodeURIComponent(id)}`)}>{rule.data?.name}</a> /
          </>
        ) : null}
      </p>
      <h1 id="title">{id ? 'Edit rule' : 'New rule'}</h1>
      {rule.state === 'loading' ? (
        <Loading />
      ) : rule.state === 'error' ? (
        <Problem error={rule.error} />
      ) : (
        // Keyed by the version: a 409's reload starts the form again from the rule as it is now.
        <>
          {conflict ? <Problem error={conflict} /> : null}
          <RuleForm key={rule.data?.version ?? 0} rule={rule.data} onConflict={onConflict} />
        </>
      )}
    </section>
  );
}

function RuleForm({
  rule,
  onConflict,
}: {
  rule: WorkflowRuleRead | undefined;
  onConflict: (err: unknown) => void;
}) {
  const { client, tenant } = useConsole();
  const { route } = useLocation();
  const [draft, setDraft] = useState<RuleDraft>(() => (rule ? draftOf(rule) : EMPTY_RULE));
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  // The catalog's descriptions, for the rule triggers only (the test send is no change).
  const catalog = useLoad(async () => (await eventTypesList({ client })).data.items, []);
  const described = new Map((catalog.data ?? []).map((t) => [t.type, t.description]));

  const set = (change: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...change }));
  const setCondition = (i: number, change: Partial<RuleDraft['conditions'][number]>) =>
    set({ conditions: draft.conditions.map((c, j) => (j === i ? { ...c, ...change } : c)) });
  const setAction = (i: number, change: Partial<ActionDraft>) =>
    set({ actions: draft.actions.map((a, j) => (j === i ? ({ ...a, ...change } as ActionDraft) : a)) });
  const move = (i: number, by: number) => {
    const actions = [...draft.actions];
    const [a] = actions.splice(i, 1);
    actions.splice(i + by, 0, a!);
    set({ actions });
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const body = bodyOf(draft);
      const saved = rule
        ? (
            await workflowRulesUpdate({
              client,
              path: { tenant_id: tenant, rule_id: rule.id },
              body: { version: rule.version, ...body },
            })
          ).data
        : (await workflowRulesCreate({ client, path: { tenant_id: tenant }, body })).data;
      route(tenantPath(tenant, `rules/${encodeURIComponent(saved.id)}`));
    } catch (err) {
      if (isConflict(err)) onConflict(err);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const input = (
    id: string,
    path: string,
    value: string,
    onInput: (v: string) => void,
    extra: Record<string, unknown> = {},
  ) => (
    <input
      id={id}
      value={value}
      aria-invalid={fieldErrors(error, path).length > 0 || undefined}
      aria-describedby={`${id}-error`}
      onInput={(e) => onInput(e.currentTarget.value)}
      {...extra}
    />
  );

  return (
    <form class="rule-form" onSubmit={(e) => void save(e)} noValidate>
      <div class="field">
        <label for="rule-name">Name</label>
        {input('rule-name', 'name', draft.name, (name) => set({ name }), { size: 40, maxLength: 120 })}
        <FieldError error={error} path="name" id="rule-name-error" />
      </div>

      <fieldset>
        <legend>When</legend>
        <label class="check">
          <input
            type="radio"
            name="on"
            checked={draft.on === 'event'}
            onChange={() => set({ on: 'event' })}
          />
          Something happens
        </label>
        <label class="check">
          <input
            type="radio"
            name="on"
            checked={draft.on === 'schedule'}
            onChange={() => set({ on: 'schedule' })}
          />
          On a schedule
        </label>
        {draft.on === 'event' ? (
          <div class="field">
            <label for="rule-event">Event type</label>
            <select
              id="rule-event"
              value={draft.event_type}
              aria-describedby="rule-event-help rule-event-error"
              onChange={(e) => set({ event_type: e.currentTarget.value })}
            >
              {RECORDED_EVENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <span class="muted hint" id="rule-event-help">
              {described.get(draft.event_type) ?? ''}
            </span>
            <FieldError error={error} path="trigger" id="rule-event-error" />
          </div>
        ) : (
          <>
            <div class="field">
              <label for="rule-cron">Cron</label>
              {input('rule-cron', 'trigger.schedule.cron', draft.cron, (cron) => set({ cron }), {
                size: 20,
                class: 'mono',
                'aria-describedby': 'rule-cron-help rule-cron-error',
              })}
              <span class="muted hint" id="rule-cron-help">
                minute hour day month weekday; at most every 15 minutes
              </span>
              <FieldError error={error} path="trigger.schedule.cron" id="rule-cron-error" />
            </div>
            <div class="field">
              <label for="rule-tz">Time zone</label>
              {input(
                'rule-tz',
                'trigger.schedule.timezone',
                draft.timezone,
                (timezone) => set({ timezone }),
                {
                  size: 20,
                  placeholder: "the tenant's",
                },
              )}
              <FieldError error={error} path="trigger.schedule.timezone" id="rule-tz-error" />
            </div>
          </>
        )}
      </fieldset>

      <fieldset>
        <legend>Only if (all of)</legend>
        {draft.conditions.length === 0 ? <p class="muted">No conditions: every event of the type.</p> : null}
        {draft.conditions.map((c, i) => (
          <div class="condition" key={i} data-testid="condition">
            <label>
              <span class="visually-hidden">Condition {i + 1} field</span>
              {input(
                `cond-${i}-field`,
                `conditions.${i}.field`,
                c.field,
                (field) => setCondition(i, { field }),
                {
                  size: 18,
                  class: 'mono',
                  placeholder: 'severity',
                },
              )}
            </label>
            <label>
              <span class="visually-hidden">Condition {i + 1} operator</span>
              <select
                value={c.op}
                onChange={(e) => setCondition(i, { op: e.currentTarget.value as typeof c.op })}
              >
                {CONDITION_OPS.map((op) => (
                  <option key={op}>{op}</option>
                ))}
              </select>
            </label>
            <label>
              <span class="visually-hidden">Condition {i + 1} value</span>
              {c.op === 'exists' ? (
                <select
                  value={c.value === 'false' ? 'false' : 'true'}
                  onChange={(e) => setCondition(i, { value: e.currentTarget.value })}
                >
                  <option value="true">present</option>
                  <option value="false">absent</option>
                </select>
              ) : (
                input(
                  `cond-${i}-value`,
                  `conditions.${i}.value`,
                  c.value,
                  (value) => setCondition(i, { value }),
                  {
                    size: 22,
                    placeholder: c.op === 'in' ? 'a, b, c' : 'critical',
                  },
                )
              )}
            </label>
            <button
              type="button"
              onClick={() => set({ conditions: draft.conditions.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
            <FieldError error={error} path={`conditions.${i}`} id={`cond-${i}-field-error`} />
          </div>
        ))}
        <button
          type="button"
          onClick={() => set({ conditions: [...draft.conditions, { field: '', op: 'eq', value: '' }] })}
        >
          Add condition
        </button>
        <p class="muted hint">
          A field is a path into the event's record (severity, amount, lines.0.total). true, false and null
          are those values; anything else is text, and numbers written as text compare exactly.
        </p>
      </fieldset>

      <fieldset>
        <legend>Then, in order</legend>
        <ListError error={error} path="actions" id="actions-error" />
        <ol class="rule-actions">
          {draft.actions.map((a, i) => (
            <li key={i} data-testid="action">
              <div class="row">
                <label>
                  Action {i + 1}{' '}
                  <select
                    aria-label={`Action ${i + 1}`}
                    value={a.type}
                    onChange={(e) => setAction(i, newAction(e.currentTarget.value as ActionDraft['type']))}
                  >
                    {ACTION_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {t.replace('_', ' ')}
                      </option>
                    ))}
                  </select>
                </label>
                <span class="row-actions">
                  <button
                    type="button"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move action ${i + 1} up`}
                  >
                    Up
                  </button>
                  <button
                    type="button"
                    disabled={i === draft.actions.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move action ${i + 1} down`}
                  >
                    Down
                  </button>
                  <button
                    type="button"
                    onClick={() => set({ actions: draft.actions.filter((_, j) => j !== i) })}
                    aria-label={`Remove action ${i + 1}`}
                  >
                    Remove
                  </button>
                </span>
              </div>
              <ActionFields a={a} i={i} error={error} input={input} onChange={(c) => setAction(i, c)} />
            </li>
          ))}
        </ol>
        <button
          type="button"
          disabled={draft.actions.length >= 5}
          onClick={() => set({ actions: [...draft.actions, newAction('create_task')] })}
        >
          Add action
        </button>
      </fieldset>

      <label class="check">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
        />
        Enabled
      </label>
      <p>
        <button type="submit" class="primary" disabled={busy}>
          {rule ? 'Save changes' : 'Create rule'}
        </button>
      </p>
      {error ? <Problem error={error} /> : null}
    </form>
  );
}

/** A list's own message (too many, none), not its items' (each shown beside its field). */
function ListError({ error, path, id }: { error: unknown; path: string; id: string }) {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const messages = error.errors.filter((e) => e.path === path).map((e) => e.message);
  return messages.length ? (
    <span class="field-error" id={id} role="alert">
      {messages.join(' ')}
    </span>
  ) : null;
}

type Input = (
  id: string,
  path: string,
  value: string,
  onInput: (v: string) => void,
  extra?: Record<string, unknown>,
) => preact.JSX.Element;

/** The fields of one action's type; each 422 appears under its own field. */
function ActionFields({
  a,
  i,
  error,
  input,
  onChange,
}: {
  a: ActionDraft;
  i: number;
  error: unknown;
  input: Input;
  onChange: (change: Partial<ActionDraft>) => void;
}) {
  const field = (name: string, label: string, extra: Record<string, unknown> = {}, hint?: string) => {
    const id = `act-${i}-${name}`;
    return (
      <div class="field" key={name}>
        <label for={id}>{label}</label>
        {input(id, `actions.${i}.${name}`, a[name] ?? '', (v) => onChange({ [name]: v }), extra)}
        {hint ? <span class="muted hint">{hint}</span> : null}
        <FieldError error={error} path={`actions.${i}.${name}`} id={`${id}-error`} />
      </div>
    );
  };
  const choice = (name: string, label: string, options: readonly string[], none?: string) => {
    const id = `act-${i}-${name}`;
    return (
      <div class="field" key={name}>
        <label for={id}>{label}</label>
        <select id={id} value={a[name] ?? ''} onChange={(e) => onChange({ [name]: e.currentTarget.value })}>
          {none !== undefined ? <option value="">{none}</option> : null}
          {options.map((o) => (
            <option key={o} value={o}>
              {o.replace('_', ' ')}
            </option>
          ))}
        </select>
        <FieldError error={error} path={`actions.${i}.${name}`} id={`${id}-error`} />
      </div>
    );
  };
  switch (a.type) {
    case 'create_task':
      return (
        <>
          {field('title', 'Task title', { size: 40 }, 'placeholders like {{title}} take the record’s value')}
          {choice('assignee_role', 'For role', ROLES, 'nobody in particular')}
          {field('due_in_hours', 'Due in hours', { size: 6, inputMode: 'numeric' })}
        </>
      );
    case 'notify':
      return (
        <>
          {choice('channel', 'Channel', CHANNELS)}
          {field('recipient', 'Recipient', { size: 30 }, 'an address, number or chat; or a member below')}
          {field('recipient_user_id', 'Member (user id)', { size: 30, class: 'mono' })}
          {choice('category', 'Category', CATEGORIES)}
          {choice('priority', 'Priority', ['normal', 'critical'])}
          {field('subject', 'Subject', { size: 40 })}
          {field('body', 'Body', { size: 40 })}
        </>
      );
    case 'delay':
      return field(
        'minutes',
        'Wait (minutes)',
        { size: 6, inputMode: 'numeric' },
        '1 to 10080 (a week); the actions after it run then',
      );
    case 'set_status':
      return choice('status', 'Move the subject to', STATUSES);
  }
}
