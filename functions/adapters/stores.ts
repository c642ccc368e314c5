import { auditStore } from './audit-store';
import { documentStore } from './document-store';
import type { Db } from './dynamo';
import { exceptionStore } from './exception-store';
import { identityStore } from './identity-store';
import { invitationStore, inviteeStore } from './invitation-store';
import { taskStore } from './task-store';
import { workflowRuleStore } from './workflow-rule-store';
import { tenantStore } from './tenant-store';
import { tenantZones } from './tenant-zone';

/** Every store over one Db; route groups take the ones they use. */
export const createStores = (db: Db) => ({
  identity: identityStore(db),
  tenants: tenantStore(db),
  invitations: invitationStore(db),
  invitees: inviteeStore(db),
  exceptions: exceptionStore(db),
  audit: auditStore(db),
  documents: documentStore(db),
  tasks: taskStore(db),
  workflowRules: workflowRuleStore(db),
  zones: tenantZones(db),
});

export type Stores = ReturnType<typeof createStores>;
