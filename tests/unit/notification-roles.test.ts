import { describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { authorize, type Principal, ROLES } from '#shared/kernel/policy';

/**
 * Who may call each operation of notifications, the inbox, preferences and review items, written
 * out from docs/api.md (sections 3 and 7) independently of the manifest: an operation whose
 * permission is widened (or narrowed) in shared/api/operations fails here, not only in an e2e run.
 */
const ALL = ['operator', 'accountant', 'manager', 'owner', 'support'];
const SENDERS = ['operator', 'manager', 'owner'];
const MATRIX: Record<string, string[]> = {
  'notifications.create': SENDERS,
  'notifications.list': ALL,
  'notifications.get': ALL,
  'inbox.list': ALL,
  'inbox.summary': ALL,
  'inbox.read': ALL,
  'inbox.unread': ALL,
  'inbox.readAll': ALL,
  'preferences.get': ALL,
  'preferences.put': ALL,
  'reviewItems.list': ALL,
  'reviewItems.decide': SENDERS,
};

const member = (role: string): Principal => ({
  user_id: 'u1',
  token_id: 't1',
  email: 'u@example.test',
  display_name: 'U',
  platform_roles: [],
  memberships: { acme: role as Principal['memberships'][string] },
});

const operations = OPERATIONS as Record<string, Operation>;

describe('the role matrix of notifications', () => {
  it('names every operation of those groups', () => {
    const grouped = Object.entries(operations)
      .filter(([, op]) => ['notifications', 'inbox', 'review'].includes(op.group))
      .map(([id]) => id);
    expect(grouped.sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [id, allowed] of Object.entries(MATRIX))
    it(`${id}: ${allowed.join(', ')}`, () => {
      const op = operations[id]!;
      expect(op.auth).toBe('bearer');
      expect(op.permission, `${id} names a permission`).toBeDefined();
      const may = ROLES.filter((role) => authorize(member(role), op.permission!, 'acme') === 'allow');
      expect(may).toEqual(allowed);
    });
});
