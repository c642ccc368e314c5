import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '#tests/support/http';
import {
  type ConsoleHarness,
  openPage,
  rendered,
  signIn,
  startConsole,
  type Watched,
  onlyFailedLoads,
  screenIsClean,
} from '#tests/support/console';
import { ACME, GLOBEX, PEOPLE } from '#tests/support/console-seed';
import { FAILING_RULE, seedWorkflows, type WorkflowSeed } from '#tests/support/console-seed-workflows';

/**
 * docs/api.md, "The operator console": the workflow rules, their runs and the timers screens in
 * a real browser against the local runtime. Each journey reads the API's state after it; every
 * screen is checked with axe-core and for console errors and CSP violations.
 */

let h: ConsoleHarness;
let w: Watched;
let wf: WorkflowSeed;
let oliviaToken: string;
const api = () => client(h.rt.baseUrl);
const get = async (path: string, token = oliviaToken) =>
  (await api().call<any>('GET', `/tenants/${ACME}${path}`, { token })).body;
const at = (path: string) => h.url(`/console/t/${ACME}/${path}`);

beforeAll(async () => {
  h = await startConsole();
  wf = await seedWorkflows(h.rt.baseUrl, h.seed);
  oliviaToken = await api().login(PEOPLE.olivia.email, PEOPLE.olivia.password);
  w = await openPage(h);
});
afterAll(async () => {
  await w?.context.close();
  await h?.stop();
});

describe('console: workflow rules, runs and timers', { timeout: 60_000 }, () => {
  it('lists the rules and creates one with the form, the API’s 422 shown beside its field', async () => {
    await signIn(w, h, 'olivia');
    await w.page.getByRole('link', { name: 'Rules' }).click();
    const rows = w.page.getByTestId('rules').locator('tbody tr');
    await rows.first().waitFor();
    const listed = await get('/workflow-rules');
    expect(await rows.locator('td.title').allTextContents()).toEqual(
      listed.items.map((r: { name: string }) => r.name),
    );
    await screenIsClean(w, 'rules');

    await w.page.getByRole('link', { name: 'New rule' }).click();
    await w.page.getByLabel('Name').fill('Chase voided invoices');
    await w.page.getByLabel('Event type').selectOption('document.status_changed');
    await w.page.getByRole('button', { name: 'Add condition' }).click();
    await w.page.getByLabel('Condition 1 field').fill('status');
    await w.page.getByLabel('Condition 1 value').fill('void');
    // Too short for a task's title (2 to 255): the API's 422 comes back beside that field.
    await w.page.getByLabel('Task title').fill('x');
    await w.page.getByLabel('For role').selectOption('accountant');
    await w.page.getByLabel('Due in hours').fill('24');
    await w.page.getByRole('button', { name: 'Add action' }).click();
    await w.page.getByLabel('Action 2', { exact: true }).selectOption('delay');
    await w.page.getByLabel('Wait (minutes)').fill('30');
    await w.page.getByRole('button', { name: 'Create rule' }).click();
    await rendered(() => w.page.locator('#act-0-title-error').textContent()).toMatch(/at least 2/);
    expect((await get('/workflow-rules')).items).toHaveLength(listed.items.length);
    onlyFailedLoads(w, 422);
    await screenIsClean(w, 'rule-edit');

    await w.page.getByLabel('Task title').fill('Ask why {{number}} was voided');
    await w.page.getByRole('button', { name: 'Create rule' }).click();
    await w.page.getByRole('heading', { name: 'Chase voided invoices' }).waitFor();
    const [created] = (await get('/workflow-rules')).items;
    expect(created).toMatchObject({
      name: 'Chase voided invoices',
      trigger: { event_type: 'document.status_changed' },
      conditions: [{ field: 'status', op: 'eq', value: 'void' }],
      actions: [
        {
          type: 'create_task',
          title: 'Ask why {{number}} was voided',
          assignee_role: 'accountant',
          due_in_hours: 24,
        },
        { type: 'delay', minutes: 30 },
      ],
      enabled: true,
      version: 1,
    });
    expect(w.page.url()).toContain(`/rules/${created.id}`);

    // Tried on a sample event: what it would do, and nothing written.
    const tasksBefore = (await get('/tasks?limit=100')).items.length;
    await w.page.getByText('Try it on a sample event').click();
    await w.page.getByLabel('Record (JSON)').fill('{"id": "doc-9", "status": "void", "number": "INV-9"}');
    await w.page.getByRole('button', { name: 'Try', exact: true }).click();
    const result = w.page.getByTestId('test-result');
    await rendered(() => result.textContent()).toContain('It would act');
    expect(await result.textContent()).toContain('Ask why INV-9 was voided');
    expect(await result.textContent()).toMatch(/wait 30 minutes, until/);
    await w.page.getByLabel('Record (JSON)').fill('{"id": "doc-9", "status": "paid"}');
    await w.page.getByRole('button', { name: 'Try', exact: true }).click();
    await rendered(() => result.textContent()).toContain('a condition fails');
    expect((await get('/tasks?limit=100')).items).toHaveLength(tasksBefore);
    expect(w.problems).toEqual([]);

    // A schedule's cron that fires too often: the API's message beside the cron.
    await w.page.getByRole('link', { name: 'Edit rule' }).click();
    await w.page.getByLabel('On a schedule').check();
    await w.page.getByLabel('Cron').fill('*/5 * * * *');
    await w.page.getByRole('button', { name: 'Save changes' }).click();
    await rendered(() => w.page.locator('#rule-cron-error').textContent()).toMatch(/every 15 minutes/);
    await w.page.getByLabel('Something happens').check();
    // Someone else changes the rule meanwhile: the save is a 409, the form shows the rule as it is now.
    const other = await api().call('PATCH', `/tenants/${ACME}/workflow-rules/${created.id}`, {
      token: oliviaToken,
      body: { version: 1, enabled: false },
    });
    expect(other.status).toBe(200);
    await w.page.getByLabel('Name').fill('Chase voided invoices today');
    await w.page.getByRole('button', { name: 'Save changes' }).click();
    await w.page.getByRole('alert').filter({ hasText: 'This record changed' }).waitFor();
    await rendered(() => w.page.getByLabel('Enabled').isChecked()).toBe(false);
    expect(await w.page.getByLabel('Name').inputValue()).toBe('Chase voided invoices');
    expect(await get(`/workflow-rules/${created.id}`)).toMatchObject({
      name: 'Chase voided invoices',
      version: 2,
      trigger: { event_type: 'document.status_changed' },
    });
    onlyFailedLoads(w, 422, 409);
    await w.page.getByLabel('Name').fill('Chase voided invoices today');
    await w.page.getByRole('button', { name: 'Save changes' }).click();
    await w.page.getByRole('heading', { name: 'Chase voided invoices today' }).waitFor();
    expect(await get(`/workflow-rules/${created.id}`)).toMatchObject({ version: 3, enabled: false });
    expect(w.problems).toEqual([]);
  });

  it('makes a rule run fail and replays it from the run’s page', async () => {
    // The seed's rule moved its bank exceptions to `done`, which an exception cannot be: both runs failed.
    await w.page.goto(at(`rules/${wf.rules.failing}?status=failed`));
    const runs = w.page.getByTestId('runs').locator('tbody tr');
    await rendered(() => runs.count()).toBe(2);
    await w.page.getByLabel('Status').selectOption('succeeded');
    await rendered(() => w.page.url()).toContain('status=succeeded');
    await w.page.getByText('No succeeded runs in the last 30 days.').waitFor();
    await w.page.getByLabel('Status').selectOption('failed');
    await rendered(() => runs.count()).toBe(2);
    await screenIsClean(w, 'rule-runs');

    const [runId, otherId] = wf.runs.failed;
    await w.page.locator(`tr[data-run="${runId}"] td:first-child a`).click();
    const actions = w.page.getByTestId('run-actions').locator('tbody tr');
    await rendered(() => actions.count()).toBe(2);
    expect(await actions.nth(0).textContent()).toMatch(/create task.*done.*task/);
    expect(await actions.nth(1).textContent()).toMatch(/set status.*failed.*invalid_transition/);
    await screenIsClean(w, 'run-failed');
    // The failed run is the review queue's item, its reason the first failed action's error.
    const items = (await get('/review-items?kind=workflow_action&status=open')).items;
    expect(items.find((i: { subject_id: string }) => i.subject_id === runId)).toMatchObject({
      reason: 'invalid_transition',
    });

    // The fix: the second action acknowledges the exception instead.
    await w.page.getByRole('link', { name: FAILING_RULE }).click();
    await w.page.getByRole('link', { name: 'Edit rule' }).click();
    await w.page.getByLabel('Move the subject to').selectOption('acknowledged');
    await w.page.getByRole('button', { name: 'Save changes' }).click();
    await w.page.getByRole('heading', { name: FAILING_RULE }).waitFor();
    expect((await get(`/workflow-rules/${wf.rules.failing}`)).version).toBe(2);

    // From the review queue: a failed run's item links to the run's page.
    await w.page.goto(at('review?kind=workflow_action'));
    await w.page
      .getByTestId('review-items')
      .getByRole('link', { name: `run ${runId}` })
      .click();
    await rendered(() => w.page.url()).toContain(`/runs/${runId}`);
    await w.page.getByRole('button', { name: 'Replay this run' }).click();
    await rendered(() => w.page.getByTestId('run-status').textContent()).toContain('succeeded');
    await w.page.getByTestId('replays').getByText('by Olivia, with rule version 2').waitFor();
    const run = await get(`/workflow-runs/${runId}`);
    expect(run).toMatchObject({
      status: 'succeeded',
      replays: [{ actor_id: h.seed.users.olivia, rule_version: 2 }],
    });
    expect(run.actions.map((a: { status: string }) => a.status)).toEqual(['done', 'done']);
    const subject = wf.failingSubjects[wf.runs.failed.indexOf(runId!)];
    expect((await get(`/exceptions/${subject}`)).status).toBe('acknowledged');
    // The task made before the failure is not made again.
    expect((await get(`/tasks?subject_type=exception&subject_id=${subject}`)).items).toHaveLength(1);
    const audit = await get(`/audit-events?entity_type=workflow_run&entity_id=${runId}`);
    expect(audit.items.map((e: { event_type: string }) => e.event_type)).toContain('workflow_run.replayed');
    expect(await w.page.getByRole('button', { name: 'Replay this run' }).count()).toBe(0);
    // The replay decided the run's review item: the queue no longer offers it.
    const decided = (await get('/review-items?kind=workflow_action&status=retried')).items;
    expect(decided.find((i: { subject_id: string }) => i.subject_id === runId)).toMatchObject({
      note: 'replayed from the run',
      decided_by: h.seed.users.olivia,
    });

    // The rest of the period's failures, from the rule's page: its progress until done.
    await w.page.getByRole('link', { name: FAILING_RULE }).click();
    await w.page.getByRole('button', { name: 'Replay failed runs' }).click();
    await rendered(() => w.page.url()).toContain('replay=');
    await rendered(() => w.page.getByTestId('replay-progress').textContent()).toMatch(
      /done.*1 of 1 replayed/,
    );
    await rendered(async () => (await get(`/workflow-runs/${otherId}`)).status).toBe('succeeded');
    expect((await get(`/workflow-runs?rule_id=${wf.rules.failing}&status=failed`)).items).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('shows the timers soonest first, each linked to its subject', async () => {
    await w.page.getByRole('link', { name: 'Timers' }).click();
    const rows = w.page.getByTestId('timers').locator('tbody tr');
    await rows.first().waitFor();
    const timers = (await get('/timers')).items as { kind: string; due_at: string; subject_id: string }[];
    expect(await rows.locator('.kind').allTextContents()).toEqual(timers.map((t) => t.kind));
    const due = timers.map((t) => t.due_at);
    expect(due).toEqual([...due].sort());
    expect(timers.map((t) => t.kind)).toEqual(
      expect.arrayContaining(['rule_delay', 'rule_schedule', 'escalation', 'task_due']),
    );
    await screenIsClean(w, 'timers');

    await w.page.getByLabel('Kind').selectOption('rule_delay');
    await rendered(() => w.page.url()).toContain('kind=rule_delay');
    await rendered(() => rows.count()).toBe(1);
    await rows
      .first()
      .getByRole('link', { name: /workflow run/ })
      .click();
    await rendered(() => w.page.url()).toContain(`/runs/${wf.runs.waiting}`);
    await rendered(() => w.page.getByTestId('run-status').textContent()).toContain('waiting');

    await w.page.goto(at('timers?kind=escalation'));
    await rows
      .first()
      .getByRole('link', { name: /exception/ })
      .click();
    await rendered(() => w.page.url()).toContain(`/exceptions/${h.seed.exceptions.critical}`);
    expect(w.problems).toEqual([]);
  });

  it('an operator reads rules and runs but is offered no change; Globex’s stay unseen by deep link', async () => {
    const sam = await openPage(h);
    try {
      await signIn(sam, h, 'sam', `/console/t/${ACME}/rules/${wf.rules.failing}`);
      await sam.page.getByRole('heading', { name: FAILING_RULE }).waitFor();
      await sam.page.getByTestId('runs').waitFor();
      for (const name of ['Edit rule', 'Replay failed runs'])
        expect(
          await sam.page.getByRole('button', { name }).or(sam.page.getByRole('link', { name })).count(),
        ).toBe(0);
      await sam.page.goto(h.url(`/console/t/${ACME}/rules`));
      await sam.page.getByTestId('rules').waitFor();
      expect(await sam.page.getByRole('link', { name: 'New rule' }).count()).toBe(0);
      await sam.page.goto(h.url(`/console/t/${ACME}/runs/${wf.runs.failed[1]}`));
      await sam.page.getByTestId('run-actions').waitFor();
      expect(await sam.page.getByRole('button', { name: 'Replay this run' }).count()).toBe(0);

      for (const path of [
        `/console/t/${GLOBEX}/rules`,
        `/console/t/${GLOBEX}/rules/${wf.rules.globex}`,
        `/console/t/${ACME}/rules/${wf.rules.globex}`,
        `/console/t/${GLOBEX}/runs/${wf.runs.globex}`,
        `/console/t/${ACME}/runs/${wf.runs.globex}`,
        `/console/t/${GLOBEX}/timers`,
      ]) {
        await sam.page.goto(h.url(path));
        await sam.page.getByRole('alert').filter({ hasText: 'Not found' }).waitFor();
        expect(await sam.page.content(), path).not.toContain('Globex payroll follow-up');
        expect(await sam.page.content(), path).not.toContain('Resend the payroll file');
      }
      for (const p of sam.problems) expect(p).toMatch(/status of 404/);
    } finally {
      await sam.context.close();
    }
  });
});
