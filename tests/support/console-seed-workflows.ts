import { client, type Reply } from './http';
import { ACME, type ConsoleSeed, GLOBEX, PEOPLE } from './console-seed';
import { until } from './wait';

/**
 * The workflow screens' data, on top of seedConsole's (tests/e2e/console/workflows.test.ts and
 * `npm run screenshot:console`): in Acme, a rule whose second action moves a bank exception to
 * `done`, which an exception's state machine refuses, so its two runs fail (`invalid_transition`)
 * after their first action made a task; a scheduled rule (a `rule_schedule` timer); a rule that
 * waits two hours before it reminds Olivia (a waiting run and its `rule_delay` timer). In Globex,
 * a rule and its run no Acme-only member may see.
 */
export interface WorkflowSeed {
  rules: { failing: string; scheduled: string; delayed: string; globex: string };
  runs: { failed: string[]; waiting: string; globex: string };
  /** The exceptions the failing rule's runs are about, newest first (as the runs are listed). */
  failingSubjects: string[];
}

export const FAILING_RULE = 'Close rejected bank payments';

const ok = <T>(r: Reply<T>, what: string): T => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

export async function seedWorkflows(baseUrl: string, seed: ConsoleSeed): Promise<WorkflowSeed> {
  const api = client(baseUrl);
  const olivia = await api.login(PEOPLE.olivia.email, PEOPLE.olivia.password);
  const post = async (tenant: string, path: string, body: unknown, token = olivia) =>
    ok(await api.call<any>('POST', `/tenants/${tenant}/${path}`, { token, body }), `POST ${path}`);
  const runsOf = async (tenant: string, rule: string, token = olivia) =>
    ok(await api.call<any>('GET', `/tenants/${tenant}/workflow-runs?rule_id=${rule}`, { token }), 'runs')
      .items as { id: string; status: string }[];

  const failing = (
    await post(ACME, 'workflow-rules', {
      name: FAILING_RULE,
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'exception_type', op: 'eq', value: 'bank.payment_rejected' }],
      actions: [
        {
          type: 'create_task',
          title: 'Ask the bank why {{subject_id}} was rejected',
          assignee_role: 'accountant',
          due_in_hours: 8,
        },
        { type: 'set_status', status: 'done' },
      ],
    })
  ).id as string;
  const scheduled = (
    await post(ACME, 'workflow-rules', {
      name: 'Weekday overdue sweep',
      trigger: { schedule: { cron: '0 8 * * 1-5', timezone: 'Europe/Berlin' } },
      actions: [{ type: 'create_task', title: 'Chase the overdue invoices', assignee_role: 'accountant' }],
    })
  ).id as string;
  const delayed = (
    await post(ACME, 'workflow-rules', {
      name: 'Remind about low stock',
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'exception_type', op: 'eq', value: 'stock.low' }],
      actions: [
        { type: 'delay', minutes: 120 },
        {
          type: 'notify',
          channel: 'in_app',
          recipient_user_id: seed.users.olivia,
          category: 'exceptions',
          subject: 'Still low: {{subject_id}}',
          body: '{{title}} is still open.',
        },
      ],
    })
  ).id as string;

  const exception = (subject: string, type: string, title: string) =>
    post(ACME, 'exceptions', {
      exception_type: type,
      subject_type: type.startsWith('stock') ? 'sku' : 'bank_payment',
      subject_id: subject,
      title,
      summary: title,
      severity: 'warning',
    }).then((x) => x.id as string);
  const first = await exception('PAY-7001', 'bank.payment_rejected', 'Bank rejected payment PAY-7001');
  const second = await exception('PAY-7002', 'bank.payment_rejected', 'Bank rejected payment PAY-7002');
  await exception('SKU-19', 'stock.low', 'Stock of SKU-19 is low');

  const globexRule = (
    await post(
      GLOBEX,
      'workflow-rules',
      {
        name: 'Globex payroll follow-up',
        trigger: { event_type: 'exception.created' },
        actions: [{ type: 'create_task', title: 'Resend the payroll file' }],
      },
      seed.adminToken,
    )
  ).id as string;
  await post(
    GLOBEX,
    'exceptions',
    {
      exception_type: 'payroll.file_rejected',
      subject_type: 'payroll_run',
      subject_id: 'PR-2026-12',
      title: 'Globex payroll file rejected again',
      summary: 'The bank rejected the December payroll file.',
      severity: 'warning',
    },
    seed.adminToken,
  );

  const failed = await until(async () => {
    const runs = await runsOf(ACME, failing);
    return runs.length === 2 && runs.every((r) => r.status === 'failed') ? runs.map((r) => r.id) : undefined;
  }, 'the two runs of the failing rule to fail');
  const waiting = await until(async () => {
    const [run] = await runsOf(ACME, delayed);
    return run?.status === 'waiting' ? run.id : undefined;
  }, 'the low-stock run to wait on its delay');
  const globexRun = await until(async () => {
    const [run] = await runsOf(GLOBEX, globexRule, seed.adminToken);
    return run?.status === 'succeeded' ? run.id : undefined;
  }, "Globex's run to succeed");

  return {
    rules: { failing, scheduled, delayed, globex: globexRule },
    runs: { failed, waiting, globex: globexRun },
    failingSubjects: [second, first],
  };
}
