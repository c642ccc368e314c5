import { type AccessDoc, entity } from '../entity';

/**
 * Failed logins of one email in one throttle window, counted in `failures` (with ADD) and expired
 * by TTL; the email is hashed into the key, not stored.
 */
export const loginFailures = /* @__PURE__ */ entity('login_failures', {
  table: { pk: 'LOGIN_FAILURES#{email_hash}', sk: '{window_start}' },
});

export const access = {
  entity: loginFailures,
  labels: { email_hash: 'sha256(lower(email))', window_start: 'window start' },
  patterns: [
    {
      name: 'Failed logins of an email in this window (login throttle)',
      sortKey: 'equals',
      notes:
        'read with the login in one BatchGetItem; counted with ADD, whose returned count decides; expires by TTL',
    },
  ],
} satisfies AccessDoc<typeof loginFailures>;
