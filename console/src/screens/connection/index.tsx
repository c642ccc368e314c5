import { useLocation, useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  type AdapterContractRead,
  adaptersGet,
  type IntegrationConnectionRead,
  type IntegrationDiagnosticsRead,
  integrationConnectionsAuthorize,
  integrationConnectionsDelete,
  integrationConnectionsDiagnose,
  integrationConnectionsGet,
  integrationConnectionsUpdate,
  reconciliationRunsCreate,
  reconciliationRunsList,
} from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useAction, useLoad } from '../../ui/load.js';
import { FieldError, Problem } from '../../ui/problem.js';
import { Badge, Listing, Loading, Time } from '../../ui/table.js';
import { byConsent, FreshnessText, HealthState, reconcilable, secretFields } from '../integrations/health.js';
import { ScheduleFields } from '../integrations/index.js';

/**
 * One connection: its health and freshness, connecting it by OAuth 2, its diagnostics with each
 * check's next action, its schedule, its secret replaced, and its reconciliation runs.
 */
export function ConnectionScreen() {
  const { client, tenant, can } = useConsole();
  const { params } = useRoute();
  const id = params.id!;
  const connection = useLoad(
    async () =>
      (await integrationConnectionsGet({ client, path: { tenant_id: tenant, connection_id: id } })).data,
    [tenant, id],
  );
  const adapterKey = connection.data?.adapter_key;
  const adapter = useLoad(
    async () =>
      adapterKey ? (await adaptersGet({ client, path: { adapter_key: adapterKey } })).data : undefined,
    [adapterKey],
  );
  const manage = can('integrations.manage');

  return (
    <section aria-labelledby="title">
      <p class="crumbs">
        <a href={tenantPath(tenant, 'integrations')}>Integrations</a> /
      </p>
      {connection.state === 'loading' ? (
        <Loading />
      ) : connection.state === 'error' ? (
        <>
          <h1 id="title">Connection</h1>
          <Problem error={connection.error} />
        </>
      ) : (
        <>
          <h1 id="title">{connection.data.name}</h1>
          <Facts c={connection.data} adapter={adapter.data} />
          {manage && byConsent(adapter.data) ? <Connect c={connection.data} adapter={adapter.data!} /> : null}
          {manage ? <Diagnostics c={connection.data} onRan={connection.reload} /> : null}
          <h2>Schedule</h2>
          <Schedule c={connection.data} manage={manage} onChanged={connection.reload} />
          {manage && secretFields(adapter.data).length > 0 ? (
            <ReplaceSecret
              c={connection.data}
              fields={secretFields(adapter.data)}
              onChanged={connection.reload}
            />
          ) : null}
          {manage && reconcilable(adapter.data) ? <Runs c={connection.data} /> : null}
          {manage ? <Lifecycle c={connection.data} onChanged={connection.reload} /> : null}
        </>
      )}
    </section>
  );
}

function Facts({ c, adapter }: { c: IntegrationConnectionRead; adapter: AdapterContractRead | undefined }) {
  const config = Object.entries(c.config);
  return (
    <dl class="facts connection-facts">
      <dt>Adapter</dt>
      <dd>
        {adapter?.name ?? c.adapter_key} <span class="mono muted">{c.adapter_key}</span>
      </dd>
      <dt>Status</dt>
      <dd>
        <Badge value={c.status} />
      </dd>
      <dt>Health</dt>
      <dd data-testid="health">
        <HealthState c={c} />
        {c.health.next_action ? <div class="next-action">Next: {c.health.next_action}</div> : null}
      </dd>
      <dt>Freshness</dt>
      <dd>
        <FreshnessText c={c} category={adapter?.category} />
      </dd>
      <dt>Last success</dt>
      <dd>
        <Time at={c.health.last_success_at} />
      </dd>
      <dt>Last failure</dt>
      <dd>
        <Time at={c.health.last_failure_at} />
      </dd>
      <dt>Open issues</dt>
      <dd>{c.health.open_issues}</dd>
      <dt>{byConsent(adapter) ? 'Authorized' : 'Secret'}</dt>
      <dd data-testid="secret-configured">
        {c.secret_configured ? (byConsent(adapter) ? 'yes' : 'set (never shown)') : 'not set'}
      </dd>
      <dt>Scopes</dt>
      <dd class="mono">{c.scopes.join(' ')}</dd>
      <dt>Config</dt>
      <dd>
        {config.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <table class="kv" data-testid="config">
            <tbody>
              {config.map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">{k}</th>
                  <td class="mono">{typeof v === 'string' ? v : JSON.stringify(v)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </dd>
    </dl>
  );
}

/**
 * Connect by the provider's consent: the authorize call names this page as where the callback's
 * page leads back, and the browser goes to the provider in this tab (the session lives in this
 * tab's sessionStorage, so coming back finds it signed in).
 */
function Connect({ c, adapter }: { c: IntegrationConnectionRead; adapter: AdapterContractRead }) {
  const { client, tenant } = useConsole();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await integrationConnectionsAuthorize({
        client,
        path: { tenant_id: tenant, connection_id: c.id },
        query: { return_to: `${location.origin}${location.pathname}` },
      });
      location.assign(data.authorize_url);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <div class="actions">
      <button type="button" class="primary" disabled={busy} onClick={() => void go()}>
        {c.secret_configured ? `Connect to ${adapter.name} again` : `Connect to ${adapter.name}`}
      </button>
      <span class="muted">Opens {adapter.name}’s consent page; you come back here after it.</span>
      {error ? <Problem error={error} /> : null}
    </div>
  );
}

function Diagnostics({ c, onRan }: { c: IntegrationConnectionRead; onRan: () => void }) {
  const { client, tenant } = useConsole();
  const [result, setResult] = useState<IntegrationDiagnosticsRead>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await integrationConnectionsDiagnose({
        client,
        path: { tenant_id: tenant, connection_id: c.id },
      });
      setResult(data);
      onRan();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h2>Diagnostics</h2>
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void run()}>
          Run diagnostics
        </button>
        {result ? (
          <span class="muted">
            Ran at <Time at={result.ran_at} seconds />
          </span>
        ) : (
          <span class="muted">
            Checks config, secret, scopes, mapping and the provider; a failing check opens an issue.
          </span>
        )}
      </div>
      {error ? <Problem error={error} /> : null}
      {busy && !result ? <Loading /> : null}
      {result ? (
        <table class="list" data-testid="checks">
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Result</th>
              <th scope="col">What it found</th>
              <th scope="col">Next action</th>
            </tr>
          </thead>
          <tbody>
            {result.checks.map((x) => (
              <tr key={x.id}>
                <td class="mono">{x.id}</td>
                <td>
                  <Badge value={x.status} />
                </td>
                <td class="detail">{x.message}</td>
                <td class="detail">{x.next_action ?? <span class="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function Schedule({
  c,
  manage,
  onChanged,
}: {
  c: IntegrationConnectionRead;
  manage: boolean;
  onChanged: () => void;
}) {
  const { client, tenant } = useConsole();
  const { busy, error, run } = useAction(onChanged);
  const [saved, setSaved] = useState(false);
  const every = (h: number | undefined) => (h === undefined ? 'not scheduled' : `every ${h} h`);
  const shown = (
    <p data-testid="schedule">
      Diagnostics {every(c.schedule?.diagnostics_every_hours)}; reconciliation{' '}
      {every(c.schedule?.reconciliation_every_hours)}.
    </p>
  );
  if (!manage) return shown;
  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const hours = (k: string) => {
      const v = String(data.get(k) ?? '').trim();
      return v ? Number(v) : undefined;
    };
    setSaved(false);
    const ok = await run(() =>
      integrationConnectionsUpdate({
        client,
        path: { tenant_id: tenant, connection_id: c.id },
        body: {
          schedule: {
            diagnostics_every_hours: hours('diagnostics_every_hours'),
            reconciliation_every_hours: hours('reconciliation_every_hours'),
          },
        },
      }),
    );
    setSaved(ok);
  };
  return (
    <>
      {shown}
      <form
        class="prefs"
        aria-label="Schedule"
        // Keyed by the stored schedule: a saved change (or a 409's fresh read) resets the fields.
        key={JSON.stringify(c.schedule)}
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e.currentTarget);
        }}
      >
        <ScheduleFields error={error} prefix="schedule" value={c.schedule} />
        <button type="submit" disabled={busy}>
          Save schedule
        </button>
        {saved ? (
          <span class="ok" role="status">
            {' '}
            Saved.
          </span>
        ) : null}
        {error ? <Problem error={error} /> : null}
      </form>
    </>
  );
}

/**
 * Replace the connection's secret. The typed value goes with the request and is cleared from the
 * form at once; the API never returns it, so nothing on the page shows it again. The note that it
 * was stored goes when dismissed.
 */
function ReplaceSecret({
  c,
  fields,
  onChanged,
}: {
  c: IntegrationConnectionRead;
  fields: string[];
  onChanged: () => void;
}) {
  const { client, tenant } = useConsole();
  const { busy, error, run } = useAction(onChanged);
  const [stored, setStored] = useState(false);
  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const secret = Object.fromEntries(fields.map((f) => [f, String(data.get(f) ?? '')]));
    form.reset();
    setStored(false);
    setStored(
      await run(() =>
        integrationConnectionsUpdate({
          client,
          path: { tenant_id: tenant, connection_id: c.id },
          body: { secret },
        }),
      ),
    );
  };
  return (
    <>
      <h2>Secret</h2>
      <form
        class="prefs"
        aria-label="Replace the secret"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e.currentTarget);
        }}
      >
        {fields.map((f) => (
          <div class="field" key={f}>
            <label for={`secret-${f}`}>{f}</label>
            <input
              id={`secret-${f}`}
              name={f}
              type="password"
              autoComplete="off"
              required
              aria-describedby={`secret-${f}-error`}
            />
            <FieldError error={error} path={`secret.${f}`} id={`secret-${f}-error`} />
          </div>
        ))}
        <button type="submit" disabled={busy}>
          Replace secret
        </button>
        {error ? <Problem error={error} /> : null}
      </form>
      {stored ? (
        <div class="notice" role="status" data-testid="secret-stored">
          The new secret is stored. It is never shown again, here or by the API.{' '}
          <button type="button" onClick={() => setStored(false)}>
            Dismiss
          </button>
        </div>
      ) : null}
    </>
  );
}

function Runs({ c }: { c: IntegrationConnectionRead }) {
  const { client, tenant } = useConsole();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const runs = useLoad(
    async () =>
      (
        await reconciliationRunsList({
          client,
          path: { tenant_id: tenant },
          query: { connection_id: c.id, limit: 20 },
        })
      ).data,
    [tenant, c.id, c.updated_at],
  );
  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await reconciliationRunsCreate({
        client,
        path: { tenant_id: tenant },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        body: { connection_id: c.id, rule_set: 'payment_reconciliation' },
      });
      runs.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h2>Reconciliation runs</h2>
      <div class="actions">
        <button type="button" disabled={busy || c.status !== 'active'} onClick={() => void start()}>
          Start a reconciliation
        </button>
        <button type="button" onClick={runs.reload}>
          Refresh
        </button>
        <span class="muted">Compares the provider’s invoices and payments with the tenant’s.</span>
      </div>
      {error ? <Problem error={error} /> : null}
      <Listing list={runs} empty="No reconciliation runs yet.">
        {(data) => (
          <table class="list" data-testid="runs">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Matched</th>
                <th scope="col">Mismatched</th>
                <th scope="col">Missing at provider</th>
                <th scope="col">Missing here</th>
                <th scope="col">Exceptions</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((r) => (
                <tr key={r.id}>
                  <td class="title">
                    <a
                      href={tenantPath(
                        tenant,
                        `integrations/${encodeURIComponent(c.id)}/runs/${encodeURIComponent(r.id)}`,
                      )}
                    >
                      <Time at={r.created_at} seconds />
                    </a>
                  </td>
                  <td>
                    <Badge value={r.status} />
                  </td>
                  <td>{r.matched}</td>
                  <td>{r.mismatched}</td>
                  <td>{r.missing_in_provider}</td>
                  <td>{r.missing_locally}</td>
                  <td>{r.exception_ids.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </>
  );
}

/**
 * Disable (nothing is sent or read through it; its schedules wait) or enable again, and delete
 * with its secret after a second click naming what goes: a deleted connection cannot come back.
 */
function Lifecycle({ c, onChanged }: { c: IntegrationConnectionRead; onChanged: () => void }) {
  const { client, tenant } = useConsole();
  const { route } = useLocation();
  const { error, run } = useAction(onChanged);
  const [confirming, setConfirming] = useState(false);
  const path = { tenant_id: tenant, connection_id: c.id };
  const next = c.status === 'active' ? 'disabled' : 'active';
  return (
    <>
      <h2>Connection</h2>
      <div class="actions" data-testid="lifecycle">
        <button
          type="button"
          onClick={() =>
            void run(() => integrationConnectionsUpdate({ client, path, body: { status: next } }))
          }
        >
          {next === 'disabled' ? 'Disable' : 'Enable again'}
        </button>
        {confirming ? (
          <>
            <span>Delete {c.name} and its secret? This cannot be undone.</span>
            <button
              type="button"
              class="danger"
              onClick={() =>
                // Back to the list within the call: the page never reads the deleted record again.
                void run(async () => {
                  await integrationConnectionsDelete({ client, path });
                  route(tenantPath(tenant, 'integrations'));
                })
              }
            >
              Delete
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Delete…
          </button>
        )}
      </div>
      {error ? <Problem error={error} /> : null}
    </>
  );
}
