import type { OperationId } from '../manifest';

// Examples of the core operations; demo operations use their payloads. A test validates every
// example against its schema, so an example cannot drift from the contract.

const AT = '2026-03-31T07:05:00Z';
const EXAMPLE_USER = {
  id: 'usr_01HZX3K8QG',
  email: 'admin@example.com',
  display_name: 'Platform admin',
  created_at: AT,
};
const EXAMPLE_EXCEPTION = {
  id: 'exc_01HZX4B2N7',
  tenant_id: 'alder-creek-supply',
  exception_type: 'payment.amount_mismatch',
  severity: 'warning',
  status: 'open',
  subject_type: 'supplier_invoice',
  subject_id: 'INV-20417',
  title: 'Payment 540.00 USD below invoice',
  summary: 'Payment PAY-88120 of 4,860.00 USD does not cover invoice INV-20417 of 5,400.00 USD.',
  impact_json: '{"amount_gap":"540.00","currency":"USD"}',
  evidence_json: '{"payment_ref":"PAY-88120"}',
  detected_at: AT,
  created_at: AT,
  updated_at: AT,
  resolved_at: null,
  escalation: null,
};

export const EXAMPLES: Partial<Record<OperationId, { request?: unknown; response?: unknown }>> = {
  'auth.login': {
    request: { email: 'admin@example.com', password: 'your-password' },
    response: {
      access_token: 'opaque-random-token',
      expires_at: '2026-03-31T19:05:00Z',
      token_type: 'bearer',
      user: EXAMPLE_USER,
    },
  },
  'tenants.create': {
    request: { id: 'alder-creek-supply', name: 'Alder Creek Supply Co.' },
    response: {
      id: 'alder-creek-supply',
      name: 'Alder Creek Supply Co.',
      status: 'active',
      timezone: 'UTC',
      created_at: AT,
    },
  },
  'exceptions.create': {
    request: {
      exception_type: 'payment.amount_mismatch',
      subject_type: 'supplier_invoice',
      subject_id: 'INV-20417',
      title: 'Payment 540.00 USD below invoice',
      summary: 'Payment PAY-88120 of 4,860.00 USD does not cover invoice INV-20417 of 5,400.00 USD.',
      severity: 'warning',
      impact: { amount_gap: '540.00', currency: 'USD' },
      evidence: { payment_ref: 'PAY-88120' },
    },
    response: EXAMPLE_EXCEPTION,
  },
  'exceptions.list': { response: { items: [EXAMPLE_EXCEPTION], next_cursor: null } },
  'exceptions.changeStatus': {
    request: { status: 'resolved', note: 'Early-payment discount of 10% confirmed.' },
    response: {
      ...EXAMPLE_EXCEPTION,
      status: 'resolved',
      updated_at: '2026-03-31T09:05:00Z',
      resolved_at: '2026-03-31T09:05:00Z',
    },
  },
  'public.health': { response: { status: 'ok' } },
};
