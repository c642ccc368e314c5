import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '#local/runtime';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';

/**
 * The README's "Try it with curl" blocks, then its "Connect Xero through the sandbox" block in the
 * same shell, run as printed against a runtime started as the README says.
 */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const bashBlocks = (text: string) => [...text.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const walkthrough = readme.slice(
  readme.indexOf('## Try it with curl'),
  readme.indexOf('## Connect Xero through the sandbox'),
);
// The start line, then the walkthrough's blocks in order (its workflow runs among them).
const [startLine = '', ...blocks] = bashBlocks(walkthrough);
const xero = bashBlocks(readme.slice(readme.indexOf('## Connect Xero through the sandbox')))[0] ?? '';
const script = [...blocks, xero].join('\n');

let stop: () => Promise<void>;
let url: string;

beforeAll(async () => {
  const email = /OPS_BOOTSTRAP_ADMIN_EMAIL=(\S+)/.exec(startLine)?.[1];
  const password = /OPS_BOOTSTRAP_ADMIN_PASSWORD='([^']+)'/.exec(startLine)?.[1];
  if (!email || !password) throw new Error('README start line changed shape');
  const rt = await startRuntime({
    endpoint: dynamoEndpoint(),
    tableName: uniqueTableName('readme'),
    bootstrapAdmin: { email, password },
    // The walkthrough moves the runtime's clock (POST /_local/clock), as the start line sets it up.
    env: startLine.includes('OPS_LOCAL_CLOCK=manual') ? { OPS_LOCAL_CLOCK: 'manual' } : {},
  });
  stop = rt.stop;
  url = rt.url;
});
afterAll(() => stop?.());

describe('README curl examples', () => {
  it('work as printed', async () => {
    expect(script).toContain('export OPS=http://127.0.0.1:3000');
    const run = script.replace('export OPS=http://127.0.0.1:3000', `export OPS=${url}`);
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', run], {
      // The walkthrough polls the workers and signs in twice (scrypt): on a loaded machine it
      // outgrew 30 s, and with the escalation block (a policy, two clock moves and their polls)
      // 90 s at a load average of 20 on two cores.
      timeout: 150_000,
    });
    // The walkthrough's last two commands print the status codes of the revoke and of the next use.
    expect(stdout).toMatch(/204\n401\n/);
    // The Xero block: the consent page's redirect reaches the callback, and both invoices are booked.
    expect(xero).toContain('prompt=auto');
    expect(stdout).toContain('Xero is connected');
    expect(stdout).toMatch(/"secret_configured":true/);
    expect(stdout).not.toMatch(/sbx-(at|rt)-/);
    expect(stdout).toMatch(/xero export exported\n$/);
    expect(stdout).toContain('"id":"acme"');
    expect(stdout).toContain('notification delivered');
    expect(stdout).toContain(
      '"subject":"Payment short","body":"INV-1042 is short by 40.00","category":"general"',
    );
    expect(stdout).toMatch(/read at \d{4}-\d\d-\d\dT/);
    expect(stdout).toContain('inbox of another member: 404');
    expect(stdout).toContain('"quiet_hours":{"start":"22:00","end":"07:00","timezone":"Europe/Berlin"}');
    expect(stdout).toContain('documents: suppressed');
    expect(stdout).toContain('"subject":"Call Globex"');
    expect(stdout).toMatch(/task read at \d{4}-\d\d-\d\dT/);
    expect(stdout).toContain('email delivered');
    expect(stdout).toContain('"status":"resolved"');
    expect(stdout).toContain('"code":"invalid_transition"');
    // The list by type: the reconciliation's mismatch, first on its page.
    expect(stdout).toMatch(
      /"items":\[\{"id":"[^"]+","tenant_id":"acme","exception_type":"reconciliation\.amount_mismatch"/,
    );
    expect(stdout).toContain('"event_type":"exception.status_changed"');
    expect(stdout).toContain('"side_effects":"none"');
    // The workflow runs: a run waiting on its delay, then a failed run replayed, its item decided.
    expect(stdout).toContain('"kind":"rule_delay"');
    expect(stdout).toContain('"code":"invalid_action"');
    expect(stdout).toContain('replay: 202');
    expect(stdout).toContain('"note":"replayed from the run"');
    expect(stdout).toContain('rule task: Look at: Payment short by 40.00');
    expect(stdout).toContain('escalation: open 1');
    expect(stdout).toContain('after 15 minutes: open 2');
    expect(stdout).toContain('acknowledged: acknowledged none');
    expect(stdout).toContain('an hour after the acknowledgement: open 1');
    expect(stdout).toContain('"event_type":"exception.ack_timed_out"');
    expect(stdout).toContain('"event_type":"exception.escalated"');
    expect(stdout).toContain('"code":"duplicate_payment"');
    expect(stdout).toContain('"risk_level":"critical"');
    expect(stdout).toContain('"finding_type":"self_approval"');
    expect(stdout).toContain('"routed_to":"owner"');
    expect(stdout).toContain(
      '"review_items_open":{"notification":0,"workflow_action":0,"accounting_export":0,"integration_issue":0,"webhook_endpoint":0}',
    );
    // Event subscriptions: signed deliveries, two signatures after the rotation, a 503 then a 410
    // in the log, and the recovered message.
    expect(stdout).toContain('"type":"exception.created","signatures":1,"answered":200');
    expect(stdout).toContain('"error_code":"http_410"');
    expect(stdout).toContain('{"queued":1}');
    expect(stdout).toContain('messages received: 5');
    expect(stdout).toContain('export exported');
    expect(stdout).toContain('same batch: 200');
    expect(stdout).toContain('"kind":"task_due"');
    expect(stdout).toContain('overdue rule task: Chase: File the VAT return');
    expect(stdout).toMatch(/next scheduled run: \d{4}-\d\d-\d\dT/);
    expect(stdout).toMatch(/scheduled runs: diagnostics( and reconciliation)?\n/);
    expect(stdout).toMatch(/scheduled rule task: Weekly review \d{4}-\d\d-\d\dT\d\d:00:00\.000Z/);
  }, 180_000);
});
