import { client, type Reply } from './http';
import { until } from './e2e';

/**
 * The operator console's data, the README walkthrough's people and records: Acme Trading with
 * Olivia (owner; also an operator of Globex), Sam (operator of Acme only) and Sue (support of
 * Acme), exceptions of each severity and status (the critical one under an escalation policy),
 * tasks, a review item (a Telegram message the tenant never connected, gated) and three unread
 * in-app messages to Olivia. Globex Ltd holds records only its members may see. The browser tests
 * and `npm run screenshot:console` both start from it.
 */
export const PEOPLE = {
  olivia: { email: 'olivia@acme.example', password: 'olivia-password-1', name: 'Olivia' },
  sam: { email: 'sam@acme.example', password: 'sam-password-0001', name: 'Sam' },
  sue: { email: 'sue@acme.example', password: 'sue-password-0001', name: 'Sue' },
} as const;

export const ACME = 'acme';
export const GLOBEX = 'globex';
/** The title of Globex's exception: text no Acme-only member may ever see. */
export const GLOBEX_SECRET = 'Globex payroll file rejected';

export interface ConsoleSeed {
  adminToken: string;
  users: Record<keyof typeof PEOPLE, string>;
  exceptions: { critical: string; overdue: string; acknowledged: string; resolved: string; globex: string };
  tasks: { mine: string; manager: string };
  reviewItem: string;
  inbox: string[];
}

const ok = <T>(r: Reply<T>, what: string): T => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

export async function seedConsole(
  baseUrl: string,
  admin: { email: string; password: string },
): Promise<ConsoleSeed> {
  const api = client(baseUrl);
  const token = await api.login(admin.email, admin.password);
  const post = async (path: string, body: unknown, as = token) =>
    ok(await api.call<any>('POST', path, { token: as, body }), `POST ${path}`);

  await post('/tenants', { id: ACME, name: 'Acme Trading' });
  await post('/tenants', { id: GLOBEX, name: 'Globex Ltd' });
  const member = async (tenant: string, who: keyof typeof PEOPLE, role: string) =>
    (
      await post(`/tenants/${tenant}/members`, {
        email: PEOPLE[who].email,
        display_name: PEOPLE[who].name,
        role,
        password: PEOPLE[who].password,
      })
    ).user_id as string;
  const [oliviaId, sam, sue] = await Promise.all([
    member(ACME, 'olivia', 'owner'),
    member(ACME, 'sam', 'operator'),
    member(ACME, 'sue', 'support'),
  ]);
  const users = { olivia: oliviaId, sam, sue };
  await member(GLOBEX, 'olivia', 'operator');
  // Acme's records are Olivia's doing, so the timelines name her; Globex's are the admin's.
  const olivia = await api.login(PEOPLE.olivia.email, PEOPLE.olivia.password);
  const acme = (path: string, body: unknown) => post(`/tenants/${ACME}/${path}`, body, olivia);

  // The messages first: the relay and the workers deliver them while the records are written.
  // Telegram was never connected in Acme: the message is gated and a review item opens.
  const gated = (
    await acme('notifications', {
      channel: 'telegram',
      recipient: '777',
      body: 'Stock of SKU-19 is low',
    })
  ).id as string;
  const inbox: string[] = [];
  for (const [category, subject, body] of [
    ['general', 'Welcome to Acme Trading', 'The platform admin added you to the tenant.'],
    ['tasks', 'Call Globex', 'Ask about the double payment of INV-2001.'],
    ['exceptions', 'Payment short', 'INV-1042 is short by 40.00.'],
  ] as const)
    inbox.push(
      (
        await acme('notifications', {
          channel: 'in_app',
          recipient_user_id: users.olivia,
          category,
          subject,
          body,
        })
      ).id,
    );

  await acme('escalation-policies', {
    name: 'Critical payments',
    match: { severities: ['critical'] },
    levels: [
      { after_minutes: 15, notify: [{ channel: 'in_app', role: 'owner' }] },
      { after_minutes: 60, notify: [{ channel: 'in_app', role: 'manager' }] },
    ],
  });
  const exception = async (tenant: string, body: Record<string, unknown>) =>
    (tenant === ACME ? await acme('exceptions', body) : await post(`/tenants/${tenant}/exceptions`, body))
      .id as string;
  const resolved = await exception(ACME, {
    exception_type: 'payment.duplicate',
    subject_type: 'invoice',
    subject_id: 'INV-2001',
    title: 'Invoice INV-2001 paid twice',
    summary: 'PAY-1 and PAY-2 both settle INV-2001 for 1000.00 EUR.',
    severity: 'warning',
    evidence: { payments: ['PAY-1', 'PAY-2'], overpaid: '1000.00 EUR' },
  });
  await acme(`exceptions/${resolved}/status`, {
    status: 'resolved',
    note: 'Refunded PAY-2',
  });
  const acknowledged = await exception(ACME, {
    exception_type: 'bank.unmatched_transaction',
    subject_type: 'bank_transaction',
    subject_id: 'TX-88412',
    title: 'Bank transfer with no matching invoice',
    summary: 'A 312.50 EUR transfer from Initech matches no open invoice.',
    severity: 'info',
    evidence: { amount: '312.50', currency: 'EUR', counterparty: 'Initech' },
  });
  await acme(`exceptions/${acknowledged}/status`, {
    status: 'acknowledged',
    note: 'Asked Initech',
  });
  const overdue = await exception(ACME, {
    exception_type: 'invoice.overdue',
    subject_type: 'invoice',
    subject_id: 'INV-1043',
    title: 'Invoice INV-1043 is 12 days overdue',
    summary: 'Initech has not paid 250.00 EUR due on 2026-11-17.',
    severity: 'warning',
    evidence: { due_on: '2026-11-17', amount: '250.00', currency: 'EUR' },
  });
  const critical = await exception(ACME, {
    exception_type: 'payment.amount_mismatch',
    subject_type: 'invoice',
    subject_id: 'INV-1042',
    title: 'Payment short by 40.00',
    summary: 'Bank shows 960.00 against invoice total 1000.00',
    severity: 'critical',
    evidence: { bank_amount: '960.00', invoice_amount: '1000.00' },
    impact: { short_by: '40.00', currency: 'EUR' },
  });
  const globex = await exception(GLOBEX, {
    exception_type: 'payroll.file_rejected',
    subject_type: 'payroll_run',
    subject_id: 'PR-2026-11',
    title: GLOBEX_SECRET,
    summary: 'The bank rejected the November payroll file.',
    severity: 'critical',
  });

  const task = async (body: Record<string, unknown>) => (await acme('tasks', body)).id as string;
  const manager = await task({ title: 'Review the Initech credit limit', assignee_role: 'manager' });
  const mine = await task({
    title: 'Call Globex about INV-1042',
    assignee_id: users.olivia,
    subject_type: 'invoice',
    subject_id: 'INV-1042',
    due_at: '2026-12-01T09:00:00Z',
  });

  const reviewItem = await until(async () => {
    const r = await api.call<any>('GET', `/tenants/${ACME}/review-items?status=open`, { token });
    return r.body.items?.find((i: { notification_id: string }) => i.notification_id === gated)?.id as
      string | undefined;
  }, 'the gated notification to open a review item');
  await until(async () => {
    const r = await api.call<any>('GET', `/tenants/${ACME}/notifications?channel=in_app&limit=100`, {
      token,
    });
    const delivered = r.body.items?.filter(
      (n: { id: string; status: string }) => inbox.includes(n.id) && n.status === 'delivered',
    ).length;
    return delivered === inbox.length ? true : undefined;
  }, "Olivia's three in-app messages to be delivered");

  return {
    adminToken: token,
    users,
    exceptions: { critical, overdue, acknowledged, resolved, globex },
    tasks: { mine, manager },
    reviewItem,
    inbox,
  };
}
