import { type AccessDoc, entity, record } from '../entity';

/** Due timers are spread over shards so that 10,000 timers of one minute do not heat one key. */
export const TIMER_DUE_SHARDS = 4;

/**
 * A pending timer (docs/api.md, "Time"): something the service will do at `due_at` unless the
 * timer is cancelled (deleted) or re-armed (put again under its id) first. One timer per kind
 * and subject, so re-arming replaces and never duplicates. GSI1 lists a tenant's timers soonest
 * first; GSI3 is the due-time index the timer sweeper reads across tenants, shard by shard.
 * `due_at` is always `toISOString()` text, so the sort keys order by time.
 */
export const timer = /* @__PURE__ */ entity('timer', {
  table: { pk: 'TENANT#{tenant_id}#TIMER', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#TIMER#DUE', sk: '{due_at}#{id}' },
  gsi3: { pk: 'TIMER#DUE#{shard}', sk: '{due_at}#{tenant_id}#{id}' },
});

/**
 * The timer record (the Timer of the domain; TimerRead is it without `tenant_id`, and without
 * the optional fields a timer does not have). `shard` places it in the due-time index.
 */
export const timerRecord = /* @__PURE__ */ record(timer, {
  id: 'string',
  tenant_id: 'string',
  kind: 'enum',
  subject_type: 'string',
  subject_id: 'string',
  due_at: 'datetime',
  rule_id: 'string|null?',
  policy_id: 'string|null?',
  level: 'int|null?',
  shard: { type: 'int', hidden: true },
});

export const access = {
  entity: timer,
  labels: { id: 'timer_id' },
  patterns: [
    { name: 'Get timer (re-arm, cancel, claim)', sortKey: 'equals' },
    {
      name: "List a tenant's timers, soonest first",
      index: 'gsi1',
      notes: 'kind, subject_type and subject_id are filter expressions',
    },
    {
      name: 'Timers due by now (timer sweeper)',
      index: 'gsi3',
      sortKey: { lessThan: '<now>$' },
      notes: 'one query per shard; a claimed timer is deleted, so the index holds only pending timers',
    },
  ],
} satisfies AccessDoc<typeof timer>;
