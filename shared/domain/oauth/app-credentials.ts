import type { Clock } from '#shared/kernel/ids';
import type { Connection } from '#shared/domain/integrations/ports';
import type { AppCredentials } from './tokens';

/**
 * A wrong app secret is not a revoked consent (docs/api.md, "Connecting an accounting system"):
 * a token endpoint's `invalid_client` keeps the connection's tokens and marks its health
 * `failing` with reason `app_credentials_invalid`; the service's operators are alerted (the
 * `counted` port: a metric with an alarm, runbooks/oauth-app-credentials.md). The next token call
 * that succeeds (the secret fixed) clears the mark, with nothing for the tenant to do.
 */

/** The mark on a connection's health record (`HealthRecord.app_credentials_invalid_since`). */
export interface AppCredentialsMarks {
  /**
   * `since` sets it (kept from the first refusal on, with the refusal as the last failure); null
   * clears it (a no-op when not set).
   */
  mark(tenantId: string, connectionId: string, since: string | null): Promise<void>;
}

export interface AppCredentialsDeps {
  marks: AppCredentialsMarks;
  clock: Clock;
  /** One refused token call, for the alarm (the adapter's metric and log line). */
  counted: (c: Connection) => void;
}

export const appCredentials = (deps: AppCredentialsDeps): AppCredentials => ({
  async refused(c) {
    deps.counted(c);
    await deps.marks.mark(c.tenant_id, c.id, deps.clock.now().toISOString());
  },
  accepted: (c) => deps.marks.mark(c.tenant_id, c.id, null),
});
