import type { TableAccess } from '#infra/constructs/service-function';

/**
 * Table access of each API route group: the DynamoDB actions and indexes its code calls, and no
 * other (tests/e2e/roles-from-calls.test.ts records the calls and fails both ways; what it
 * cannot make is in infra/role-acknowledgements.ts). Every bearer group may run the token check
 * itself when the authorizer could not (functions/http/principal.ts): GetItem of the session,
 * Query on gsi1 (the user and memberships) and UpdateItem of `last_used_at` (`update`, or
 * `touchSessions` for a group that writes nothing else). `null` means no table access at all; a
 * group missing here fails the synth.
 */
export const GROUP_TABLE_ACCESS: Readonly<Record<string, TableAccess | null>> = {
  // Login, sessions, invitations (the invitee's by e-mail, gsi1); the login and its throttle
  // counter in one BatchGetItem.
  auth: { read: ['get', 'gsi1'], write: ['put', 'update'], batchGet: true },
  // A member's GET /tenants reads the page's tenants in one BatchGetItem (tenant-store.ts);
  // a member's removal deletes the membership; the owners' invitation list is gsi2.
  tenants: {
    read: ['get', 'query', 'gsi1', 'gsi2'],
    write: ['put', 'update', 'delete'],
    batchGet: true,
  },
  // Filters: status gsi1, subject gsi2, type gsi3. Delete: an Idempotency-Key's claim released.
  exceptions: { read: ['get', 'query', 'gsi1', 'gsi2', 'gsi3'], write: ['put', 'update', 'delete'] },
  // Filters: status gsi1, channel gsi2. A digest's join checks its hold (ConditionCheck).
  notifications: {
    read: ['get', 'query', 'gsi1', 'gsi2'],
    write: ['put', 'update', 'delete', 'conditionCheck'],
  },
  // The one review queue: it decides notifications, workflow actions, integration issues and
  // exports; lists by status gsi1, tenant and kind gsi2, every tenant's open items of a kind gsi3.
  // A decision writes the item, the re-drafted notification or replayed run, audit and outbox.
  review: { read: ['get', 'query', 'gsi1', 'gsi2', 'gsi3'], write: ['put', 'update'] },
  // A credit note or payment checks the invoice it applies to (ConditionCheck).
  documents: {
    read: ['get', 'query', 'gsi1', 'gsi2'],
    write: ['put', 'update', 'delete', 'conditionCheck'],
  },
  // An assignee must be a member (ConditionCheck); filters: status gsi1, assignee gsi2.
  tasks: {
    read: ['get', 'query', 'gsi1', 'gsi2'],
    write: ['put', 'update', 'delete', 'conditionCheck'],
  },
  workflows: { read: ['get', 'query', 'gsi1', 'gsi2', 'gsi3'], write: ['put', 'update', 'delete'] },
  // Listing connections reads their health records in one BatchGetItem (hub-store.ts healthOf).
  integrations: { read: ['get', 'query', 'gsi1'], write: ['put', 'update', 'delete'], batchGet: true },
  // Exports (their list by status gsi1), audit and outbox items; the documents and connections
  // it names, read by key. No secret and no queue: the worker reads the connection's secret; the
  // stream relays the outbox.
  accounting: { read: ['get', 'query', 'gsi1'], write: ['put', 'update'] },
  // Endpoints, their count, messages (by endpoint gsi1, by status gsi2), audit and outbox items.
  webhooks: { read: ['get', 'query', 'gsi1', 'gsi2'], write: ['put', 'update', 'delete'] },
  escalation: { read: ['get', 'query', 'gsi1'], write: ['put', 'update', 'delete'] },
  // A member's own items and preferences; unread gsi1, category gsi2, unread of a category gsi3.
  inbox: { read: ['get', 'query', 'gsi1', 'gsi2', 'gsi3'], write: ['put', 'update'] },
  // The OAuth callback (public): takes the state (Delete), writes the connection and its timer.
  oauth: { read: ['get'], write: ['put', 'update', 'delete'] },
  // Audit events (by entity gsi1, by type gsi2) and timers (gsi1).
  audit: { read: ['get', 'query', 'gsi1', 'gsi2'], touchSessions: true },
  // Previews Query each kind's partition of the table and GetItem the tenant; gsi1 is the token
  // check's (the user's memberships). They never write (docs/api.md section 9.5): not even the
  // token check's session touch, which their guard skips (functions/http/principal.ts).
  previews: { read: ['get', 'query', 'gsi1'] },
  // Reads only: the sparse gsi3 by Query, and the token check's session read and touch.
  metrics: { read: ['get', 'gsi1', 'gsi3'], touchSessions: true },
  // `GET /health` reads the health probe's key; nothing else of the table, and no cursor to sign.
  public: { healthProbe: true },
};
