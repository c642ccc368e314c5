import {
  inboxSummary,
  listInbox,
  markInboxRead,
  markInboxUnread,
  readAllInbox,
} from '#shared/domain/inbox/use-cases';
import { getPreferences, putPreferences } from '#shared/domain/preferences/use-cases';
import { INBOX_OPERATIONS } from '#shared/api/operations/inbox';
import { dbFor } from '#functions/adapters/dynamo';
import { inboxStore } from '#functions/adapters/inbox-store';
import { preferencesStore } from '#functions/adapters/preferences-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';

const db = dbFor(tableConfig());
const inbox = { inbox: inboxStore(db), clock };
const prefs = { preferences: preferencesStore(db), clock };

/** The caller's own in-app inbox and notification preferences in a tenant (docs/api.md sections 7.1, 7.3). */
export const handler = httpHandler(
  INBOX_OPERATIONS,
  {
    'inbox.list': ({ principal, params, query: { limit, cursor, ...filter } }) =>
      listInbox(inbox, principal, params.tenant_id, filter, { limit, cursor }),
    'inbox.summary': ({ principal, params }) => inboxSummary(inbox, principal, params.tenant_id),
    'inbox.read': ({ principal, params }) =>
      markInboxRead(inbox, principal, params.tenant_id, params.notification_id),
    'inbox.unread': ({ principal, params }) =>
      markInboxUnread(inbox, principal, params.tenant_id, params.notification_id),
    'inbox.readAll': ({ principal, params, body }) => readAllInbox(inbox, principal, params.tenant_id, body),
    'preferences.get': ({ principal, params }) => getPreferences(prefs, principal, params.tenant_id),
    'preferences.put': ({ principal, params, body }) =>
      putPreferences(prefs, principal, params.tenant_id, body),
  },
  { tenantExists: tenantExistsIn(db) },
);
