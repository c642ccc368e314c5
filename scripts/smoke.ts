import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

/**
 * `npm run smoke -- --base <URL>`: the core of README's walkthrough ("Try it with curl") against
 * any deployment of the API, checking each answer's status: health, the platform admin's login, a
 * tenant and its owner, a workflow rule and its dry run, an exception acknowledged and resolved,
 * the rule's task created by the internal worker (table stream, relay, queue), an in-app
 * notification delivered to the owner's inbox, a problem+json error, and the owner's log-out,
 * refused on the next call. Each run makes its own tenant (`smoke-<time>-<random>`), so it can run again against
 * the same stage; nothing of the local runtime (its clock, its sandboxes) is used.
 *
 * The admin's e-mail and password come from OPS_BOOTSTRAP_ADMIN_EMAIL and
 * OPS_BOOTSTRAP_ADMIN_PASSWORD (the names `npm run bootstrap:admin` reads), never from the
 * command line. `--wait-seconds` bounds each wait on the asynchronous path (default 30).
 *
 * Exit status: 0 when every step answered as expected; 1 at the first that did not (its answer
 * is printed); 2 on bad input.
 */

const USAGE = `usage: OPS_BOOTSTRAP_ADMIN_EMAIL=... OPS_BOOTSTRAP_ADMIN_PASSWORD=... \\
  npm run smoke -- --base <URL> [--wait-seconds 30]`;

export class SmokeFailure extends Error {}

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are navigated freely, each step checks its own.
  body: any;
}

interface Options {
  base: string;
  email: string;
  password: string;
  waitSeconds: number;
  log: (line: string) => void;
}

/** Runs the steps in order; throws SmokeFailure at the first unexpected answer. */
export async function smoke({ base, email, password, waitSeconds, log }: Options): Promise<number> {
  const root = base.replace(/\/+$/, '');
  let steps = 0;
  const call = async (
    expected: number,
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const res = await fetch(`${root}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text for the failure message
    }
    const ms = Math.round(performance.now() - started);
    if (res.status !== expected)
      throw new SmokeFailure(`${method} ${path}: ${res.status}, expected ${expected}: ${text.slice(0, 500)}`);
    steps++;
    log(`ok ${res.status} ${method} ${path} (${ms} ms)`);
    return { status: res.status, headers: res.headers, body };
  };
  /** Asks again every half second until `done` holds, within --wait-seconds. */
  const until = async (what: string, ask: () => Promise<Answer>, done: (a: Answer) => boolean) => {
    const deadline = performance.now() + waitSeconds * 1000;
    for (;;) {
      const answer = await ask();
      if (done(answer)) return answer;
      if (performance.now() > deadline)
        throw new SmokeFailure(`${what}: not within ${waitSeconds} s: ${JSON.stringify(answer.body)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  const login = async (who: string, secret: string) =>
    (await call(201, 'POST', '/auth/sessions', { body: { email: who, password: secret } })).body
      .access_token as string;

  await call(200, 'GET', '/health');
  const token = await login(email, password);

  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
  const tenant = `smoke-${stamp}-${randomBytes(3).toString('hex')}`;
  const t = `/tenants/${tenant}`;
  await call(201, 'POST', '/tenants', { token, body: { id: tenant, name: `Smoke test ${stamp}` } });
  const ownerEmail = `owner@${tenant}.example`;
  const ownerPassword = randomBytes(18).toString('base64url');
  const owner = await call(201, 'POST', `${t}/members`, {
    token,
    body: { email: ownerEmail, display_name: 'Smoke owner', role: 'owner', password: ownerPassword },
  });

  const rule = await call(201, 'POST', `${t}/workflow-rules`, {
    token,
    body: {
      name: 'Critical exceptions need a manager',
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'severity', op: 'eq', value: 'critical' }],
      actions: [
        { type: 'create_task', title: 'Look at: {{title}}', assignee_role: 'manager', due_in_hours: 4 },
      ],
    },
  });
  await call(200, 'POST', `${t}/workflow-rules/${rule.body.id}/test`, {
    token,
    body: {
      event: {
        event_type: 'exception.created',
        entity: { id: 'sample', severity: 'critical', title: 'Sample' },
      },
    },
  });

  const exception = await call(201, 'POST', `${t}/exceptions`, {
    token,
    headers: { 'idempotency-key': `${tenant}-1` },
    body: {
      exception_type: 'payment.amount_mismatch',
      subject_type: 'invoice',
      subject_id: 'INV-1042',
      title: 'Payment short by 40.00',
      summary: 'Bank shows 960.00 against invoice total 1000.00',
      severity: 'critical',
      evidence: { bank_amount: '960.00', invoice_amount: '1000.00' },
    },
  });
  const exc = `${t}/exceptions/${exception.body.id}`;
  await call(200, 'POST', `${exc}/status`, {
    token,
    body: { status: 'acknowledged', note: 'Asked the customer' },
  });
  await call(200, 'POST', `${exc}/status`, {
    token,
    body: { status: 'resolved', note: 'Remainder received' },
  });
  // The rule fires on the internal worker: table stream, outbox relay, queue, worker.
  await until(
    "the rule's task",
    () => call(200, 'GET', `${t}/tasks?subject_type=exception&subject_id=${exception.body.id}`, { token }),
    (a) => a.body.items.length > 0,
  );
  await call(200, 'GET', `${t}/exceptions?status=resolved&limit=10`, { token });
  await call(200, 'GET', `${t}/audit-events?entity_type=exception&entity_id=${exception.body.id}`, { token });

  const note = await call(202, 'POST', `${t}/notifications`, {
    token,
    body: {
      channel: 'in_app',
      recipient_user_id: owner.body.user_id,
      subject: 'Payment short',
      body: 'INV-1042 is short by 40.00',
    },
  });
  await until(
    'the notification delivered',
    () => call(200, 'GET', `${t}/notifications/${note.body.id}`, { token }),
    (a) => a.body.status === 'delivered',
  );
  const ownerToken = await login(ownerEmail, ownerPassword);
  const inbox = await call(200, 'GET', `${t}/inbox?unread=true&limit=20`, { token: ownerToken });
  if (!inbox.body.items.some((i: { notification_id: string }) => i.notification_id === note.body.id))
    throw new SmokeFailure(`the owner's inbox lacks the notification: ${JSON.stringify(inbox.body)}`);
  await call(200, 'POST', `${t}/inbox/${note.body.id}/read`, { token: ownerToken });

  const problem = await call(409, 'POST', `${exc}/status`, { token, body: { status: 'acknowledged' } });
  if (!problem.headers.get('content-type')?.startsWith('application/problem+json'))
    throw new SmokeFailure(`an error is not problem+json: ${problem.headers.get('content-type')}`);

  // The log-out is the run's own owner's (one session, this run's), never one of the admin's.
  await call(200, 'GET', '/auth/me', { token: ownerToken });
  const sessions = await call(200, 'GET', '/auth/sessions', { token: ownerToken });
  await call(204, 'DELETE', `/auth/sessions/${sessions.body.items[0].token_id}`, { token: ownerToken });
  await call(401, 'GET', '/auth/me', { token: ownerToken });
  log(`smoke passed: ${steps} calls, tenant ${tenant}`);
  return steps;
}

function fail(message: string): never {
  console.error(`smoke: ${message}\n${USAGE}`);
  process.exit(2);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let values: { base?: string; 'wait-seconds'?: string };
  try {
    ({ values } = parseArgs({ options: { base: { type: 'string' }, 'wait-seconds': { type: 'string' } } }));
  } catch (err) {
    fail((err as Error).message);
  }
  const base = values.base ?? '';
  if (!/^https?:\/\/[^\s/]+/.test(base)) fail('--base must be the API base URL (http(s)://...)');
  const waitSeconds = Number(values['wait-seconds'] ?? 30);
  if (!Number.isFinite(waitSeconds) || waitSeconds <= 0) fail('--wait-seconds must be a positive number');
  const email = process.env.OPS_BOOTSTRAP_ADMIN_EMAIL ?? '';
  const password = process.env.OPS_BOOTSTRAP_ADMIN_PASSWORD ?? '';
  if (!email || !password)
    fail('OPS_BOOTSTRAP_ADMIN_EMAIL and OPS_BOOTSTRAP_ADMIN_PASSWORD must both be set');
  try {
    await smoke({ base, email, password, waitSeconds, log: (line) => console.log(line) });
  } catch (err) {
    console.error(`smoke FAILED: ${err instanceof SmokeFailure ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
