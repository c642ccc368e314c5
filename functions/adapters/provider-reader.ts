import type {
  Connection,
  ProbeResult,
  ProviderReader,
  ProviderRecord,
  ProviderRecords,
} from '#shared/domain/integrations/ports';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import { MONEY_PATTERN } from '#shared/kernel/money';
import { probeUrl } from './probe';

/** Where the hub reaches the providers of its adapters (functions/config.ts `hubSettings`). */
export interface ProviderReaderSettings {
  /**
   * `<base>/<adapter_key>/health` and `/records` (the local runtime's loopback sandbox); undefined
   * in the cloud: the probe goes to each adapter's declared endpoint, and no records are read.
   */
  providerUrl: string | undefined;
  timeoutMs: number;
  /** The deployment's AWS region, for the `{region}` of an AWS endpoint. */
  region: string | undefined;
  /** Adapter endpoints this deployment configures otherwise (the same as the delivering functions use). */
  endpoints: Readonly<Record<string, string | undefined>>;
  /** A webhook url on loopback is allowed (the local runtime only). */
  allowLoopback: boolean;
}

/** How the reader gets a page of an OAuth 2 connection's records: through its provider's own API (oauth-records.ts). */
export type OAuthRecords = (c: Connection, cursor?: string) => Promise<ProviderRecords>;

/**
 * Where the probe of a connection goes without a sandbox: its adapter's declared endpoint (or
 * the deployment's override of it), or the connection's own URL; undefined when it cannot be
 * named (no region, no url set).
 */
export function probeTarget(c: Connection, settings: ProviderReaderSettings): string | undefined {
  const probe = adapterByKey(c.adapter_key)?.probe;
  if (!probe) return undefined;
  if ('config_field' in probe) {
    const url = c.config[probe.config_field];
    return typeof url === 'string' ? url : undefined;
  }
  const endpoint = settings.endpoints[c.adapter_key] ?? probe.endpoint;
  if (!endpoint.includes('{region}')) return endpoint;
  return settings.region ? endpoint.replace('{region}', settings.region) : undefined;
}

/** Records at most in one answer of the hub's record endpoint (one page; OAuth providers page themselves). */
export const PROVIDER_RECORDS_MAX = 5000;

const DOCUMENT_TYPES = new Set(['invoice', 'payment', 'credit_note']);

const isRecord = (r: unknown): r is ProviderRecord => {
  if (r === null || typeof r !== 'object') return false;
  const v = r as Record<string, unknown>;
  return (
    typeof v.external_id === 'string' &&
    typeof v.number === 'string' &&
    typeof v.document_type === 'string' &&
    DOCUMENT_TYPES.has(v.document_type) &&
    typeof v.amount === 'string' &&
    MONEY_PATTERN.test(v.amount) &&
    typeof v.currency === 'string' &&
    /^[A-Z]{3}$/.test(v.currency)
  );
};

/**
 * The hub's HTTP client of the providers (the diagnostics probe and the reconciliation read):
 * the loopback sandbox where one is configured, else the probe goes to the real endpoint.
 * Every failure, a timeout, a refused connection, a non-2xx answer or a malformed body, is an
 * answer with a short reason (no body or error text of the provider's is passed on).
 */
export function providerReader(
  settings: ProviderReaderSettings,
  oauthRecords?: OAuthRecords,
): ProviderReader {
  const call = async (c: Connection, what: 'health' | 'records') => {
    const url = `${settings.providerUrl}/${encodeURIComponent(c.adapter_key)}/${what}?connection=${encodeURIComponent(c.id)}`;
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'error',
      });
      if (!res.ok) {
        await res.body?.cancel();
        return { ok: false as const, reason: `HTTP ${res.status}` };
      }
      return { ok: true as const, body: (await res.json()) as unknown };
    } catch (err) {
      const name = (err as Error).name;
      return {
        ok: false as const,
        reason:
          name === 'TimeoutError' ? 'timeout' : name === 'SyntaxError' ? 'malformed answer' : 'network error',
      };
    }
  };
  return {
    async probe(c): Promise<ProbeResult | undefined> {
      if (!settings.providerUrl) {
        const target = probeTarget(c, settings);
        return target
          ? probeUrl(target, { allowLoopback: settings.allowLoopback, timeoutMs: settings.timeoutMs })
          : undefined;
      }
      const answer = await call(c, 'health');
      return answer.ok ? { ok: true } : answer;
    },
    async records(c, cursor): Promise<ProviderRecords | undefined> {
      // Xero and QuickBooks Online are read where they are, in the cloud as locally (their
      // sandbox), a page at a time (the run keeps each page and resumes after the last).
      if (adapterByKey(c.adapter_key)?.oauth) return oauthRecords ? oauthRecords(c, cursor) : undefined;
      if (!settings.providerUrl) return undefined;
      const answer = await call(c, 'records');
      if (!answer.ok) return answer;
      const records = (answer.body as { records?: unknown } | null)?.records;
      if (!Array.isArray(records) || records.length > PROVIDER_RECORDS_MAX || !records.every(isRecord))
        return { ok: false, reason: 'malformed answer' };
      return { ok: true, records };
    },
  };
}
