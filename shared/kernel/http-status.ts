/**
 * The failure class of a provider's HTTP status, shared by the accounting export (its error
 * classes, shared/domain/accounting/error-classes.ts) and the reconciliation's reads, which must
 * not bundle the export's code. 2xx is not a failure: undefined.
 */
export type HttpFailureClass =
  'rate_limited' | 'target_unavailable' | 'validation_rejected' | 'auth_failed' | 'target_rejected';

export function classifyHttpStatus(status: number): HttpFailureClass | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'target_unavailable';
  if (status === 400 || status === 422) return 'validation_rejected';
  if (status === 401 || status === 403) return 'auth_failed';
  return 'target_rejected';
}
