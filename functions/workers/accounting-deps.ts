import type { ExportRunDeps } from '#shared/domain/accounting/export-run';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { timerWait } from '#functions/adapters/timer';
import { armTimer } from '#functions/adapters/timer-arm';
import {
  clock,
  connectionSecretSettings,
  deliveryOverrides,
  oauthSettings,
  providerSettings,
} from '#functions/config';
import { deliveryPolicy } from './delivery-policy';
import { workerTokens } from './worker-tokens';

/** The accounting export's run: the delivery policy's attempts and backoff, the hub's connections. */
export function exportRunDeps(db: Db): ExportRunDeps {
  const { maxAttempts, backoff, leaseSeconds } = deliveryPolicy();
  return {
    exports: accountingStore(db),
    connections: activeConnectionReader(
      connectionStore(db),
      connectionSecretsFor(connectionSecretSettings()),
    ),
    results: connectionResults(db),
    targets: accountingTargets(providerSettings(), { settings: oauthSettings(), token: workerTokens(db) }),
    clock,
    wait: timerWait,
    maxAttempts,
    backoff,
    leaseSeconds,
    queueSecondMs: deliveryOverrides().queueSecondMs ?? 1000,
    armWindow: (t) => armTimer(db, t),
  };
}
