import type { Timer } from '#shared/domain/timers/ports';
import type { Clock } from '#shared/kernel/ids';
import type { ActiveConnectionReader, ConnectionResults } from '#shared/domain/integrations/ports';
import type { BackoffSettings } from '#shared/domain/notifications/channels';
import type { ErrorCode } from './error-classes';
import type { AccountingExport, AccountingTargets, ExportStore, Wait } from './ports';

/**
 * What the three halves of an export run share (export-run.ts leads, export-send.ts sends,
 * export-settle.ts decides): the run's dependencies, what one run's sending produced, and the
 * run's outcome. Kept apart so each half imports these and none imports another half.
 */

export interface ExportRunDeps {
  exports: ExportStore;
  connections: ActiveConnectionReader;
  /** Where a run's outcome at the target is recorded on the connection it used (its health). */
  results: ConnectionResults;
  targets: AccountingTargets;
  clock: Clock;
  /** How the run waits between calls paced to a target's rate limit (see `Wait`). */
  wait: Wait;
  maxAttempts: number;
  backoff: BackoffSettings;
  /** How long a run holds the export (the consumer's visibility timeout). */
  leaseSeconds: number;
  /**
   * How long a second of the queue's delays lasts on `clock`: 1000 on SQS; the local runtime's
   * queues run faster. The retry time kept on the export is when the queue gives the message
   * back, so it is counted in the queue's seconds.
   */
  queueSecondMs: number;
  /** Arms the timer of an export waiting for a provider's next daily window (export-window.ts). */
  armWindow?: (timer: Timer) => Promise<void>;
}

export type ExportOutcome =
  | {
      action: 'ack';
      /** `waiting`: for the provider's next daily window, by a timer (export-window.ts). */
      result: 'exported' | 'duplicate' | 'skipped' | 'gated' | 'failed' | 'partially_exported' | 'waiting';
      export?: AccountingExport;
      reason?: string;
    }
  | {
      action: 'retry';
      result: 'retrying' | 'busy';
      delaySeconds: number;
      export?: AccountingExport;
      reason?: string;
    }
  | {
      action: 'dead_letter';
      result: 'failed' | 'partially_exported';
      export: AccountingExport;
      reason: string;
    };

export type Outcome =
  | { ok: true; external_id: string }
  | { ok: false; error: ErrorCode; message?: string }
  | { ok: false; busy: true };

/** One run's sending: each sendable document's outcome, the calls made, the longest Retry-After. */
export interface Sent {
  outcomes: Map<number, Outcome>;
  calls: number;
  sent: number;
  retryAfterSeconds: number;
}
