import type { HubDeps } from '#shared/domain/integrations/diagnostics';
import type { ReconciliationWorkerDeps } from '#shared/domain/integrations/reconciliation';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { escalationPolicyStore } from '#functions/adapters/escalation-policy-store';
import { exceptionStore } from '#functions/adapters/exception-store';
import { hubStore } from '#functions/adapters/hub-store';
import { oauthRecords } from '#functions/adapters/oauth-records';
import { providerReader } from '#functions/adapters/provider-reader';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import { clock, hubSettings, oauthSettings } from '#functions/config';
import { deliveryPolicy } from './delivery-policy';
import { workerTokens } from './worker-tokens';

/** What the integration hub's runs need on the internal worker: the table and the providers over HTTP. */
export function hubRunDeps(db: Db): HubDeps & ReconciliationWorkerDeps {
  return {
    connections: connectionStore(db),
    hub: hubStore(db),
    provider: providerReader(hubSettings(), (c) => oauthRecords(oauthSettings(), workerTokens(db), c)),
    runs: reconciliationStore(db),
    documents: documentStore(db),
    exceptions: exceptionStore(db),
    policies: escalationPolicyStore(db),
    clock,
    maxAttempts: deliveryPolicy().maxAttempts,
  };
}
